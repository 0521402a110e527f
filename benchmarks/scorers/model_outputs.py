"""Telling a model's reply from an error that a provider handed back as one: Inspect's
OpenAI-compatible providers (0.3.285) turn a prompt over the context and a content filter's
refusal into an output whose text is the server's message (stop reason ``model_length``,
``content_filter``), other providers set ``ModelOutput.error``. The scorers record why
(a judge's is a judge failure, docs/judges.md; a candidate's is noted, docs/long-runs.md).
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

    An empty text is not judged here: for the model under test an empty reply is an
    answer (a wrong one); a judge's empty reply is checked by the judge.
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
    """Score metadata and an explanation prefix for a candidate output that is no reply
    (empty for a reply); the verdict is left as the reference's rule gives it."""
    reason = no_reply(output)
    if reason is None:
        return {}, ""
    return {"no_reply": reason}, f"the model gave no reply ({reason}); "
