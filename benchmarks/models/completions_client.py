"""This package's completions requests to a served model (``vllm-completions/<model>``,
``openai-api-completions/<service>/<model>``), made through ``Model.generate``.

``client_model(model)`` is a ``Model`` over the user's own provider made anew through its
public constructor (the user's model name, base URL, key, settings and model args) as a
subclass whose ``generate`` answers this package's requests (models/completions_requests.py,
asked of the server by models/served_model.py) and passes anything else to the provider's
own: Inspect runs each request as any model call (docs/winogrande.md: a model event, a
connection of the pool, retries, ``--attempt-timeout``). The subclass is registered with
Inspect's public ``@modelapi``, under ``benchmarks/<provider>``, since Inspect names a
model (its log entries, its usage) by the registration of the object that made its
provider: the log names the user's provider. ``get_model("<provider>/...")`` still makes
Inspect's own, which was registered first.
"""

from __future__ import annotations

import functools
import weakref
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    Model,
    ModelAPI,
    ModelCall,
    ModelName,
    ModelOutput,
    RetryDecision,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from benchmarks.models.completions_requests import CompletionsServer, answer, is_request
from benchmarks.models.served_model import ServedModel, asked_again, http_retry
from benchmarks.runtime.registry_names import namespaced


def client_model(model: Model) -> Model:
    """The model whose ``generate`` answers this package's completions requests for
    ``model``: an offline model itself, else ``model``'s provider made anew, as
    ``get_model`` made it, with ``generate`` of ours."""
    if isinstance(model.api, CompletionsServer):
        return model
    if model not in _CLIENT_MODELS:
        api = model.api
        # the model's name as given (vLLM's provider drops a LoRA adapter from model_name)
        name = (api.qualified_model_name or str(model)).split("/", 1)[1]
        provider = provider_with_requests(type(api), ModelName(model).api)(
            model_name=name,
            base_url=model.explicit_base_url,
            api_key=api.api_key,
            config=model.config,
            **model.model_args,
        )
        _CLIENT_MODELS[model] = Model(provider, model.config, model.model_args)
    return _CLIENT_MODELS[model]


_CLIENT_MODELS: weakref.WeakKeyDictionary[Model, Model] = weakref.WeakKeyDictionary()


@functools.cache
def provider_with_requests(provider: type[ModelAPI], name: str) -> type[ModelAPI]:
    """``provider`` with this package's requests, registered as ``benchmarks/<name>``."""

    class WithRequests(provider):  # type: ignore[misc,valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            # the base URL given (vLLM's provider has its own only once its server is
            # resolved, at its first request of its own)
            self.given_base_url: str | None = kwargs.get("base_url")

        async def generate(
            self,
            input: list[ChatMessage],
            tools: list[ToolInfo],
            tool_choice: ToolChoice,
            config: GenerateConfig,
        ) -> ModelOutput | tuple[ModelOutput | Exception, ModelCall]:
            if not is_request(input):
                return await super().generate(input, tools, tool_choice, config)
            served = ServedModel(self, self.base_url or self.given_base_url, config)
            return await answer(served, input, config)

        def should_retry(self, ex: Exception) -> bool | RetryDecision:
            if asked_again(ex):  # a tokenizer call's failure, asked again already
                return RetryDecision.no()
            decision = http_retry(ex)
            return super().should_retry(ex) if decision is None else decision

    WithRequests.__name__ = WithRequests.__qualname__ = f"{provider.__name__}WithRequests"

    def with_requests() -> type[ModelAPI]:
        return WithRequests

    return modelapi(name=namespaced(name, __name__))(with_requests)
