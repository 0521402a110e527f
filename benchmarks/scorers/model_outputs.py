"""Telling a model's reply from an error that a provider handed back as one.

Inspect's OpenAI-compatible providers (0.3.285) turn two kinds of HTTP error
into a ``ModelOutput`` instead of raising: a prompt longer than the model's
context (``context_length_exceeded``) becomes an output whose text is the
server's error message and whose stop reason is ``model_length``; a refusal by
a content filter (``content_filter``, ``invalid_prompt``, ...) one with stop
reason ``content_filter``. Other providers set ``ModelOutput.error`` on a
refusal. Such an output holds no answer of the model's, though its text looks
like one. ``no_reply`` says why an output is not a reply; the scorers record
it (a judge's is a judge failure, docs/judges.md; a candidate's is noted in the
score, docs/long-runs.md).
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ModelOutput

# Stop reasons under which the text is not (all of) the model's reply.
NO_REPLY_STOP_REASONS = frozenset({"model_length", "content_filter"})
# How much of the provider's text an explanation quotes.
QUOTED_CHARS = 300


def no_reply(output: ModelOutput) -> str | None:
    """Why ``output`` is not a reply of the model, in a few words (None: it is one).

    An empty text is not judged here: for the model under test an empty
    reply is an answer (a wrong one); a judge's empty reply is checked by the
    judge.
    """
    if output.empty:
        return "no choices in the response"
    if output.error:
        return f"error {quoted(output.error)}"
    if output.stop_reason in NO_REPLY_STOP_REASONS:
        return f"stop reason {output.stop_reason}: {quoted(output.completion)}"
    return None


def quoted(text: str) -> str:
    """``text`` as a repr, cut to ``QUOTED_CHARS`` characters."""
    if len(text) > QUOTED_CHARS:
        text = text[:QUOTED_CHARS] + "..."
    return repr(text)


def candidate_note(output: ModelOutput) -> tuple[dict[str, Any], str]:
    """Score metadata and an explanation prefix for a candidate output that is no reply.

    Empty for a reply. The verdict is left as the reference's rule gives it
    (the text is scored as it stands); ``no_reply`` in the score metadata lets
    a user count such samples (docs/long-runs.md).
    """
    reason = no_reply(output)
    if reason is None:
        return {}, ""
    return {"no_reply": reason}, f"the model gave no reply ({reason}); "
