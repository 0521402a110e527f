"""Scripted stand-ins for real models, usable offline."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from inspect_ai.model import ChatMessage, Model, ModelOutput, ModelUsage, get_model


def last_user_text(messages: list[ChatMessage]) -> str:
    """The text of the last user message (text parts joined)."""
    for message in reversed(messages):
        if message.role == "user":
            return message.text
    return ""


def scripted_model(reply: Callable[[list[ChatMessage]], str], name: str = "model") -> Model:
    """A mockllm model answering ``reply(messages)``; usage is set so no tokenizer is fetched."""

    def outputs(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        output = ModelOutput.from_content(f"mockllm/{name}", reply(messages))
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return get_model(f"mockllm/{name}", custom_outputs=outputs)


def scripted_outputs(
    output_for: Callable[[list[ChatMessage]], ModelOutput], name: str = "model"
) -> Model:
    """A mockllm model answering with whole outputs (stop reason, error, no choices);
    usage is set so no tokenizer is fetched."""

    def outputs(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        output = output_for(messages)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return get_model(f"mockllm/{name}", custom_outputs=outputs)


def replies_by_prompt(table: Callable[[str], str]) -> Model:
    """A scripted model whose reply depends only on the last user message's text."""
    return scripted_model(lambda messages: table(last_user_text(messages)))
