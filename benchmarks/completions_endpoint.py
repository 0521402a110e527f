"""Which models Inspect serves through the completions endpoint (``/v1/completions``):
one raw prompt a request, no chat template, echoed log-probabilities where the
server gives them."""

from __future__ import annotations

# Inspect's providers that post one raw prompt to /v1/completions.
COMPLETIONS_PROVIDERS = frozenset({"openai-api-completions", "vllm-completions"})
SUPPORTED = "vllm-completions/<model> or openai-api-completions/<service>/<model>"


def sends_one_prompt(model: str) -> bool:
    """Whether ``model`` (``<provider>/<name>``) is served through the completions endpoint."""
    return model.split("/", 1)[0] in COMPLETIONS_PROVIDERS
