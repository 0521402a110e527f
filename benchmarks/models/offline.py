"""The offline models ``benchmarks/oracle`` and ``benchmarks/random``, for trying the
benchmarks without network or API key (docs/offline.md: what each replies).

The oracle's replies come from each spec's ``oracle`` rule, the random model's option
letters from each spec's ``offered_options``. Both set token usage (about four characters
a token), so nothing downloads a tokenizer. Both answer this package's completions
requests (models/completions_requests.py) as a completions server would, in-process:
their tokens are code points, the prompt comes back echoed with log-probabilities. The
model API is ``benchmarks``, registered through the package's Inspect entry point.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import random
import re
import string
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelCall,
    ModelOutput,
    ModelUsage,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from benchmarks.data.samples import bundled_data_files
from benchmarks.models.completions_requests import CompletionsServer, answer, is_request
from benchmarks.runtime.errors import UserInputError
from benchmarks.spec import KnownQuestion, OfferedOptions

MODELS = ("oracle", "random")
DEFAULT_CONFIG = GenerateConfig()

logger = logging.getLogger(__name__)
# The last "Gold target: ...\nPredicted answer: ..." of a SimpleQA grader prompt; the
# template's worked examples number their answers ("Predicted answer 1:"), so do not match.
# The example ends at a fence: backticks, or inspect_evals' ''' in its Verified template.
GRADER_FIELDS = re.compile(
    r"Gold target: (?P<target>[^\n]*)\nPredicted answer: (?P<predicted>.*?)(?:\n```|\n'''|\Z)",
    re.DOTALL,
)
DONT_KNOW = ("", "i dont know", "i do not know", "not sure")  # after _comparable()


class OfflineModelError(UserInputError):
    """A prompt the offline models cannot answer."""


@modelapi(name="benchmarks")
class OfflineModel(ModelAPI, CompletionsServer):
    """``benchmarks/oracle`` or ``benchmarks/random`` (see the module docstring)."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = DEFAULT_CONFIG,
        seed: int = 0,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config)
        if model_name not in MODELS:
            raise OfflineModelError(
                f"benchmarks/{model_name}: there is no such offline model; use "
                f"{' or '.join(f'benchmarks/{m}' for m in MODELS)}."
            )
        self.seed = seed

    def max_connections(self) -> int:
        return 64

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput | tuple[ModelOutput | Exception, ModelCall]:
        if is_request(input):  # a log-likelihood, or a prompt sent as token ids
            return await answer(self, input, config)
        prompt = "\n".join(message.text for message in input)
        last_user = next((m.text for m in reversed(input) if m.role == "user"), prompt)
        reply = self.reply(last_user)
        output = ModelOutput.from_content(model=f"benchmarks/{self.model_name}", content=reply)
        output.usage = usage(prompt, reply)
        return output

    def reply(self, prompt: str) -> str:
        if self.model_name == "oracle":
            return oracle_reply(prompt)
        return random_reply(prompt, self.seed)

    # This package's completions requests (models/completions_requests.py), answered as a
    # completions server answers them: tokens are code points, and the prompt's
    # log-probabilities come back echoed (and as prompt_logprobs).

    async def tokenize(self, text: str) -> list[int]:
        return [ord(character) for character in text]

    async def eos_token(self) -> str:
        return "\x00"

    async def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        prompt = body["prompt"]
        if isinstance(prompt, str):
            prompt = await self.tokenize(prompt)
        prompts = prompt if prompt and isinstance(prompt[0], list) else [prompt]
        if body.get("echo") or body.get("prompt_logprobs") is not None:
            choices = [self.echo(index, token_ids) for index, token_ids in enumerate(prompts)]
            sent = sum(len(token_ids) for token_ids in prompts)
            spent = ModelUsage(input_tokens=sent, output_tokens=len(prompts))
        else:
            text = "".join(chr(token) for token in prompts[0])
            reply = self.reply(text)
            choices = [{"index": 0, "text": reply, "finish_reason": "stop"}]
            spent = usage(text, reply)
        counts = {
            "prompt_tokens": spent.input_tokens,
            "completion_tokens": spent.output_tokens,
            "total_tokens": spent.input_tokens + spent.output_tokens,
        }
        return {"model": f"benchmarks/{self.model_name}", "choices": choices, "usage": counts}

    def echo(self, index: int, token_ids: list[int]) -> dict[str, Any]:
        """One prompt's choice: its tokens echoed with log-probabilities (the first has none),
        then one generated token. The oracle finds the request for the right option likely
        (-0.1 a token, else -1); the random model draws them, seeded by the prompt."""
        text = "".join(chr(token) for token in token_ids)
        if self.model_name == "oracle":
            likely = any(text.endswith(q.likely) for q in known_questions() if q.likely)
            values = [-0.1 if likely else -1.0] * len(token_ids)
        else:
            rng = random.Random(hashlib.sha256(f"{self.seed}\0{text}".encode()).digest())
            values = [-rng.random() for _ in token_ids]
        tokens = [chr(token) for token in token_ids]
        return {
            "index": index,
            "text": text + ".",
            "finish_reason": "length",
            "logprobs": {
                "tokens": [*tokens, "."],
                "token_logprobs": [
                    *(None if position == 0 else value for position, value in enumerate(values)),
                    -1.0,
                ],
            },
            "prompt_logprobs": [None]
            + [
                {str(token): {"logprob": value, "rank": 1, "decoded_token": chr(token)}}
                for token, value in zip(token_ids[1:], values[1:], strict=True)
            ],
        }


def usage(prompt: str, reply: str) -> ModelUsage:
    """About four characters a token."""
    input_tokens = max(1, len(prompt) // 4)
    output_tokens = max(1, len(reply) // 4)
    return ModelUsage(
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        total_tokens=input_tokens + output_tokens,
    )


UNKNOWN_QUESTION = (
    "benchmarks/oracle knows only the questions of the bundled samples (run the task with "
    "-T bundled_sample=true); it replies with nothing (scored as wrong) to other prompts, "
    "such as: {prompt!r}"
)


def oracle_reply(prompt: str) -> str:
    graded = grader_fields(prompt)
    if graded is not None:
        target, predicted = graded
        return grade(predicted, target)
    question = find_known_question(prompt)
    if question is None:
        warn_once(UNKNOWN_QUESTION.format(prompt=prompt[-120:]))
        return ""
    return question.reply


_warned = False


def warn_once(message: str) -> None:
    global _warned
    if not _warned:
        _warned = True
        logger.warning(message)


def random_reply(prompt: str, seed: int) -> str:
    rng = random.Random(hashlib.sha256(f"{seed}\0{prompt}".encode()).digest())
    if grader_fields(prompt) is not None:
        return rng.choice("ABC")
    for options in multiple_choice_rules():
        letters = options.letters(prompt)
        if letters:
            return options.reply.format(letter=rng.choice(letters))
    return rng.choice(bundled_free_text_answers())


def grader_fields(prompt: str) -> tuple[str, str] | None:
    """The gold target and the predicted answer of a SimpleQA grader prompt."""
    matches = list(GRADER_FIELDS.finditer(prompt))
    if not matches:
        return None
    last = matches[-1]
    return last.group("target"), last.group("predicted")


def grade(predicted: str, target: str) -> str:
    if _comparable(predicted) in DONT_KNOW:
        return "C"
    return "A" if _comparable(predicted) == _comparable(target) else "B"


def _comparable(text: str) -> str:
    stripped = text.lower().translate(str.maketrans("", "", string.punctuation))
    return " ".join(stripped.split())


def find_known_question(prompt: str) -> KnownQuestion | None:
    """The bundled question this prompt ends with: every key in the prompt, the first key
    found latest (demonstrations come before the question), then the most text matched."""
    best: tuple[int, int] | None = None
    found = None
    for question in known_questions():
        if not all(key in prompt for key in question.keys):
            continue
        rank = (prompt.rfind(question.keys[0]), sum(len(key) for key in question.keys))
        if best is None or rank > best:
            best, found = rank, question
    return found


@functools.cache
def known_questions() -> tuple[KnownQuestion, ...]:
    """Every bundled question, by each benchmark's own rule (its spec's ``oracle``)."""
    from benchmarks.catalog import specs

    return tuple(
        question
        for name, spec in specs().items()
        for question in spec.known_questions(bundled_data_files(name))
    )


@functools.cache
def multiple_choice_rules() -> tuple[OfferedOptions, ...]:
    """How each multiple-choice benchmark's prompts look, in the specs' order. The first rule
    that finds letters in a prompt answers it, whichever task asks (a chain of one's own may
    ask another benchmark's question): each rule finds letters in its own benchmark's
    prompts only (tests/test_offline_models.py)."""
    from benchmarks.catalog import specs

    return tuple(s.offered_options for s in specs().values() if s.offered_options is not None)


@functools.cache
def bundled_free_text_answers() -> tuple[str, ...]:
    answers = [
        question.reply
        for question in known_questions()
        if not question.reply.startswith("ANSWER: ") and len(question.reply) > 1
    ]
    return tuple(sorted(set(answers)))
