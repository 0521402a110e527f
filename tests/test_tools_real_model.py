"""The pieces of the real-model comparison (tools/real_model: side_by_side.py,
llama_cpp_server.py) that run without a model: the faster top-log-probabilities selection
gives what the full sort gives, the recording proxy passes replies through and keeps every
body, and the per-question counts."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import numpy as np
import pytest

from tests.loopback_server import LoopbackServer, user_text
from tools.real_model.llama_cpp_server import _largest_entries
from tools.real_model.side_by_side import RecordingProxy, bodies_match, compare_rows


def full_sort(values: Any, count: int) -> list[tuple[Any, int]]:
    """llama-cpp-python 0.3.36's own selection, as its completions endpoint runs it."""
    return list(sorted(zip(values, range(len(values)), strict=True), reverse=True))[:count]


@pytest.mark.parametrize("count", [0, 1, 2, 10, 64])
def test_largest_entries_are_the_full_sort_s_first_entries(count: int) -> None:
    generator = np.random.default_rng(count)
    for trial in range(20):
        # few distinct values, so ties fall at the cut and inside the kept entries
        values = generator.integers(-6, 0, size=64).astype(np.single) / np.single(3)
        if trial % 2:
            values = generator.normal(size=49).astype(np.single)
        got = _largest_entries(values, count)
        assert got == full_sort(values, count)
        assert [type(value) for value, _ in got] == [np.float32] * len(got)


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def test_the_recording_proxy_passes_replies_through_and_keeps_each_body() -> None:
    bodies = [
        {"model": "m", "messages": [{"role": "user", "content": f"question {n}"}]} for n in range(3)
    ]
    with LoopbackServer(lambda request: user_text(request).upper()) as upstream:
        with RecordingProxy(upstream.base_url.removesuffix("/v1")) as proxy:
            replies = [post(f"{proxy.base_url}/chat/completions", body) for body in bodies]
    assert [reply["choices"][0]["message"]["content"] for reply in replies] == [
        "QUESTION 0",
        "QUESTION 1",
        "QUESTION 2",
    ]
    assert proxy.bodies == bodies
    assert upstream.requests == bodies


def test_bodies_match_in_any_order_and_only_when_equal() -> None:
    a, b = {"prompt": "x", "echo": True}, {"prompt": "y", "echo": True}
    assert bodies_match([a, b], [b, a])
    assert not bodies_match([a, b], [b, {**a, "echo": False}])
    assert not bodies_match([a], [a, a])


def test_compare_rows_counts_readings_and_verdicts_apart() -> None:
    theirs = {0: ("A", 1.0), 1: ("B", 0.0), 2: ("A", 1.0)}
    mine = {0: ("A", 1.0), 1: ("A", 0.0), 2: ("A", 0.0)}
    result = compare_rows(3, theirs, mine, prompts_identical=True, requests=(3, 3), what="letters")
    assert result["letters identical"] == 2
    assert result["verdicts identical"] == 2
    assert result["accuracy (peer, ours)"] == [2 / 3, 1 / 3]
    assert [case["question"] for case in result["first differing"]] == [1, 2]
    fewer = {0: ("A", 1.0), 1: ("B", 0.0)}
    with pytest.raises(SystemExit, match="questions differ: peer 3, ours 2, rows 3"):
        compare_rows(3, theirs, fewer, prompts_identical=True, requests=(3, 2), what="letters")


def test_equal_values_keep_the_larger_index_first_as_the_full_sort_does() -> None:
    values = np.array([0.0, -1.0, 0.0, 0.0, -1.0], dtype=np.single)
    assert _largest_entries(values, 2) == [(0.0, 3), (0.0, 2)]
