"""API keys never reach the logs.

A scripted provider takes its key as hosted providers do (the ``api_key``
argument, else ``OPENAI_API_KEY`` from the environment). Each benchmark of the
catalog runs on its bundled sample with fake keys in the environment, in
``model_args`` and on the ``grader`` role; every byte Inspect wrote (each
``.eval`` zip entry decompressed, ``.json`` logs, the sample buffer) is then
searched for the keys.
"""

from __future__ import annotations

import os
import re
import secrets
import zipfile
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelCall,
    ModelOutput,
    ModelUsage,
    get_model,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from benchmarks.catalog import specs

ENV_KEY = f"sk-test-{secrets.token_hex(16)}"
ARGS_KEY = f"sk-test-{secrets.token_hex(16)}"
GRADER_KEY = f"sk-test-{secrets.token_hex(16)}"
HF_TOKEN = f"hf_test{secrets.token_hex(16)}"
KEYS = (ENV_KEY, ARGS_KEY, GRADER_KEY, HF_TOKEN)

# the keys each provider instance received, so the test knows they were in play
KEYS_SEEN: set[str] = set()

DEFAULT_CONFIG = GenerateConfig()


@modelapi(name="keyedscript")
class KeyedScriptAPI(ModelAPI):
    """Needs a key like a hosted provider; replies ``ANSWER: A`` (``A`` for the judge)."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = DEFAULT_CONFIG,
        **model_args: Any,
    ) -> None:
        api_key = api_key or os.environ.get("OPENAI_API_KEY")
        if not api_key:
            raise RuntimeError("keyedscript needs an API key")
        super().__init__(model_name, base_url, api_key, ["OPENAI_API_KEY"], config)

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> tuple[ModelOutput, ModelCall]:
        assert self.api_key is not None
        KEYS_SEEN.add(self.api_key)
        reply = "A" if self.model_name == "judge" else "ANSWER: A"
        output = ModelOutput.from_content(f"keyedscript/{self.model_name}", reply)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        # what a hosted provider records of the request it sent (its body, not its headers)
        request = {"model": self.model_name, "messages": [m.model_dump() for m in input]}
        return output, ModelCall.create(request, {"content": reply})


def question_text(task: Task) -> bytes:
    """The start of the first question of ``task``: plain words, which a log writes as they
    are (JSON escapes line breaks and quotes)."""
    sample = task.dataset[0]
    text = sample.input if isinstance(sample.input, str) else sample.input[-1].text
    start = re.match(r"[A-Za-z0-9 ,?]*", text).group()[:40]  # type: ignore[union-attr]
    assert len(start) >= 20, text
    return start.encode("utf-8")


def written_bytes(root: Path) -> dict[str, bytes]:
    """Every file under ``root``; a zip (``.eval``) as its decompressed entries."""
    contents: dict[str, bytes] = {}
    for path in root.rglob("*"):
        if not path.is_file():
            continue
        data = path.read_bytes()
        contents[str(path)] = data
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                for entry in archive.namelist():
                    contents[f"{path}!{entry}"] = archive.read(entry)
    return contents


@pytest.mark.parametrize(
    ("benchmark", "log_format"),
    # every benchmark; a judged one also in the json format
    [(name, "eval") for name in specs()]
    + [(name, "json") for name, spec in specs().items() if spec.judged][:1],
)
def test_api_keys_are_absent_from_the_logs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, benchmark: str, log_format: str
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    monkeypatch.setenv("HF_TOKEN", HF_TOKEN)
    # Inspect's sample buffer lives in the user data directory: search it too.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    KEYS_SEEN.clear()
    log_dir = tmp_path / "logs"
    spec = specs()[benchmark]
    task = spec.task(bundled_sample=True)
    (log,) = eval(
        task,
        model="keyedscript/candidate",
        model_args={"api_key": ARGS_KEY},
        model_roles={"grader": get_model("keyedscript/judge", api_key=GRADER_KEY)},
        log_dir=str(log_dir),
        log_format=log_format,  # type: ignore[arg-type]
        log_model_api=True,
        display="none",
    )
    assert log.status == "success"
    assert ARGS_KEY in KEYS_SEEN
    if spec.judged:
        assert GRADER_KEY in KEYS_SEEN

    written = {**written_bytes(log_dir), **written_bytes(tmp_path / "data")}
    everything = b"\n".join(written.values())
    # the search reads decompressed content: the model name and a prompt are found
    assert b"keyedscript/candidate" in everything
    assert question_text(task) in everything
    for key in KEYS:
        leaks = [name for name, data in written.items() if key.encode() in data]
        assert leaks == [], f"{key} written to {leaks}"
