"""An instant scripted model for the harness (the pattern of tests/scripted.py).

``mockllm/model`` counts tokens with tiktoken, which downloads its encoding,
unless every ``ModelOutput`` carries ``usage``; these outputs always do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from inspect_ai.model import ChatMessage, Model, ModelOutput, ModelUsage, get_model


def scripted_model(reply: Callable[[list[ChatMessage]], str], name: str = "model") -> Model:
    """A mockllm model answering ``reply(messages)`` at once, with usage set."""

    def outputs(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        return scripted_output(reply(messages), name)

    return get_model(f"mockllm/{name}", custom_outputs=outputs)


def constant_model(text: str, name: str = "model") -> Model:
    """A mockllm model that always replies ``text``."""
    return scripted_model(lambda _messages: text, name=name)


def scripted_output(text: str, name: str = "model") -> ModelOutput:
    output = ModelOutput.from_content(f"mockllm/{name}", text)
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return output
