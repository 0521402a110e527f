"""The server's tokenizer as this package's completions client asks it
(benchmarks/models/completions_client.py): each text whole, once per served model (the
server's URL and the model's name there), and each option of a log-likelihood request its
own token ids, however much of their text the options share."""

from __future__ import annotations

import asyncio

from aiohttp import web
from inspect_ai.model import get_model

from benchmarks.models.completions_client import ServedModel, client_model
from benchmarks.models.completions_requests import loglikelihood_messages
from benchmarks.solvers.loglikelihood import ECHO_CONFIG
from tests.completions_server import CompletionsServer, Tokenizer, logprob

MODEL = "openai-api-completions/loopback/{}"
# five demonstrations before each option, the same for both, and a long continuation the
# options share: texts that differ only in a few words in the middle
DEMONSTRATIONS = "".join(
    f"Demonstration {n} is a solved sentence of its own.\n\n" for n in range(5)
)
CONTINUATION = " " + " ".join(["stayed on the shelf through the long winter"] * 12) + "."
PAIRS = [
    [DEMONSTRATIONS + "The cat", CONTINUATION],
    [DEMONSTRATIONS + "The big black dog", CONTINUATION],
]


class TokenizerPerModel(CompletionsServer):
    """Its ``/tokenize`` answers the model ``other`` with ids of another vocabulary."""

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._pacing])
        app.router.add_post("/tokenize", self._tokenize)
        return app

    async def _tokenize(self, request: web.Request) -> web.Response:
        body = await request.json()
        self._record(request.path, body)
        ids = self.tokenizer.encode(body["prompt"])
        return web.json_response({"tokens": [i + (body["model"] == "other") for i in ids]})


def test_each_text_is_tokenized_whole_once_per_served_model() -> None:
    texts = [context + continuation for context, continuation in PAIRS]
    with TokenizerPerModel() as server:
        served = {
            name: ServedModel(
                client_model(
                    get_model(MODEL.format(name), base_url=server.base_url, api_key="x")
                ).api,
                server.base_url,
            )
            for name in ("scripted", "other")
        }

        async def ask_twice() -> dict[str, list[list[int]]]:
            return {
                name: [await s.tokenize(text) for text in texts * 2] for name, s in served.items()
            }

        got = asyncio.run(ask_twice())
        asked = [(body["model"], body["prompt"]) for _, body in server.requests]
    encode = Tokenizer().encode
    assert got["scripted"] == [encode(text) for text in texts * 2]
    assert got["other"] == [[i + 1 for i in encode(text)] for text in texts * 2]
    # each text once per served model, whole
    assert sorted(asked) == sorted((name, text) for name in ("scripted", "other") for text in texts)


def test_options_sharing_their_text_each_get_their_own_token_ids() -> None:
    with CompletionsServer() as server:
        model = client_model(
            get_model(MODEL.format("scripted"), base_url=server.base_url, api_key="x")
        )
        [message] = loglikelihood_messages("token_ids", PAIRS)

        async def twice() -> list[list[float]]:
            # the second time every text comes from the cache
            return [
                (await model.generate([message], config=ECHO_CONFIG)).metadata["loglikelihoods"]  # type: ignore[index]
                for _ in range(2)
            ]

        first, again = asyncio.run(twice())
        bodies = server.completions_bodies()
    tokenizer = Tokenizer()
    wholes = [tokenizer.encode(context + continuation) for context, continuation in PAIRS]
    assert len(wholes[0]) != len(wholes[1])  # options of different token counts
    assert [body["prompt"] for body in bodies] == [wholes, wholes]
    expected = []
    for whole, (context, _) in zip(wholes, PAIRS, strict=True):
        pieces = [tokenizer.pieces[i] for i in whole]
        start = len(tokenizer.encode(context))
        expected.append(sum(logprob(pieces[p - 1], pieces[p]) for p in range(start, len(pieces))))
    assert first == again == expected
