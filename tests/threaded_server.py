"""An aiohttp application served on 127.0.0.1 from a thread of its own, for the scripted
servers the tests and benchmarks talk to over real HTTP."""

from __future__ import annotations

import asyncio
import threading
from typing import TypeVar

from aiohttp import web

HOST = "127.0.0.1"
S = TypeVar("S", bound="ThreadedServer")


class ThreadedServer:
    """Serves ``app()`` on ``port`` (0: a free one); ``base_url`` is
    ``http://127.0.0.1:<port>/v1``. A context manager, or ``start()`` and ``stop()``."""

    name = "scripted-server"

    def __init__(self, port: int = 0) -> None:
        self.port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}/v1"

    def app(self) -> web.Application:
        raise NotImplementedError

    def start(self: S) -> S:
        started = threading.Event()

        def serve() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            asyncio.set_event_loop(loop)
            loop.run_until_complete(self._start_site())
            started.set()
            loop.run_forever()

        self._thread = threading.Thread(target=serve, name=self.name, daemon=True)
        self._thread.start()
        if not started.wait(timeout=30):
            raise RuntimeError(f"the {self.name} did not start within 30 s")
        return self

    async def _start_site(self) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, HOST, self.port)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    def stop(self) -> None:
        loop, runner = self._loop, self._runner
        if loop is None or runner is None:
            return
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(timeout=30)
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=30)

    def __enter__(self: S) -> S:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()
