"""Winogrande read as evalscope reads it: the parse of each release, and the run config.

The rules are restated from each release's ``evalscope/utils/multi_choices.py``;
tests/peers/test_evalscope_winogrande.py checks them against that source.
"""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest
from inspect_ai import eval

from benchmarks.profiles.winogrande import AnswerParse
from benchmarks.scorers.letter_reading import (
    EVALSCOPE_RELEASES,
    LETTER_PARSERS,
    parse_evalscope_answer,
)
from benchmarks.winogrande import winogrande
from tests.inspect_cli import config_log
from tests.loopback_server import LoopbackServer
from tests.scripted import replies_by_prompt

ANSWER_PARSES = get_args(AnswerParse)

ROOT = Path(__file__).resolve().parents[2]
VALIDATION = ROOT / "tests" / "fixtures" / "winogrande" / "validation.jsonl"
CONFIG = ROOT / "configs" / "winogrande_evalscope.yaml"


def release_key(release: str) -> tuple[int, ...]:
    return tuple(int(part) for part in release.split("."))


# Read alike by every release from 1.11.0 to 1.14.1: (reply, letter, rule).
# Letters are case-sensitive; without a labelled marker the last capital counts.
EVERY_RELEASE = [
    ("ANSWER: B", "B", "answer_marker"),
    ("answer: b", None, "none"),
    ("ANSWER: (A)", "A", "answer_marker"),
    ("ANSWER: （A）", "A", "answer_marker"),
    ("ANSWER: A\nANSWER: B", "B", "answer_marker"),
    ("The answer is B", "B", "last_capital"),
    ("", None, "none"),
    ("ANSWER: C", None, "none"),
    ("ANSWER: B, not C", "B", "answer_marker"),
    ("ANSWER: B and that is why", "B", "answer_marker"),
    ("ANSWER: [LETTER]\nI think A", "A", "last_capital"),
    ("ANSWER: AB", None, "none"),
    ("ANSWER: A, B", None, "none"),
    ("ANSWER: B.", "B", "answer_marker"),
    ("B", "B", "last_capital"),
    ("ANSWER: b\nANSWER: A", "A", "answer_marker"),
]


@pytest.mark.parametrize("release", EVALSCOPE_RELEASES)
@pytest.mark.parametrize(("reply", "letter", "rule"), EVERY_RELEASE)
def test_rules_of_every_release(release: str, reply: str, letter: str | None, rule: str) -> None:
    assert parse_evalscope_answer(reply, ["A", "B"], release) == (letter, rule)


# (release that introduced the rule, reply, letter before it, letter from it on)
RULE_CHANGES = [
    # 1.11.1: '/' and '、' separate labels, and 'and'/'or' between two labels list them;
    # a list is no single answer. Before, the label stopped at the separator.
    ("1.11.1", "ANSWER: B/A", "B", None),
    ("1.11.1", "ANSWER: B、A", "B", None),
    ("1.11.1", "ANSWER: A and B", "A", None),
    ("1.11.1", "ANSWER: A or B", "A", None),
    ("1.11.1", "ANSWER: A AND B", "A", None),
    # ... inside brackets too; before, '(A/B)' was no label and the last capital counted
    ("1.11.1", "ANSWER: (A/B)", "B", None),
    # 1.13.0: a plain label runs through a full-width comma (brackets always did)
    ("1.13.0", "ANSWER: B，A", "B", None),
    # 1.14.0: LaTeX wrappers before the label are skipped; before, the marker had no
    # label and the last capital of the reply counted
    ("1.14.0", "ANSWER: $\\boxed{B}$\n\nExplanation: A does not fit.", "A", "B"),
    ("1.14.0", "ANSWER: $\\boxed{\\text{B}}$ (A is wrong)", "A", "B"),
    ("1.14.0", "ANSWER: \\(B\\) since A is wrong", "A", "B"),
    ("1.14.0", "ANSWER: $B$, not A", "A", "B"),
    ("1.14.0", "ANSWER: $\\boxed{B/A}$", "A", None),
]


@pytest.mark.parametrize("release", EVALSCOPE_RELEASES)
@pytest.mark.parametrize(("since", "reply", "before", "after"), RULE_CHANGES)
def test_rule_changes_by_release(
    release: str, since: str, reply: str, before: str | None, after: str | None
) -> None:
    expected = after if release_key(release) >= release_key(since) else before
    assert parse_evalscope_answer(reply, ["A", "B"], release).letter == expected


def test_default_release_is_1_14_1() -> None:
    boxed = "ANSWER: $\\boxed{B}$\n\nExplanation: A does not fit."
    assert parse_evalscope_answer(boxed, ["A", "B"]).letter == "B"
    assert LETTER_PARSERS["evalscope"](boxed, ["A", "B"]).letter == "B"
    assert LETTER_PARSERS["evalscope_1.13.0"](boxed, ["A", "B"]).letter == "A"


def test_every_release_is_an_answer_parse() -> None:
    # the latest release's rule is `evalscope` (`evalscope_1.14.1` names the profile)
    releases = [f"evalscope_{release}" for release in EVALSCOPE_RELEASES if release != "1.14.1"]
    # and inspect_choice, inspect_evals' reading (tests/winogrande/test_winogrande_inspect_evals.py)
    others = ["answer_marker", "evalscope", "inspect_choice"]
    assert sorted(ANSWER_PARSES) == sorted([*others, *releases])
    assert set(ANSWER_PARSES) <= set(LETTER_PARSERS)
    assert list(EVALSCOPE_RELEASES) == ["1.11.0", "1.11.1", "1.12.0", "1.13.0", "1.14.0", "1.14.1"]


def test_the_release_changes_verdicts_end_to_end(tmp_path: Path) -> None:
    # targets B, A; the first reply reads B from 1.14.0 on, A before
    boxed = "ANSWER: $\\boxed{B}$\n\nExplanation: A does not fit."
    model = replies_by_prompt(lambda prompt: boxed if "easier" in prompt else "answer: a")
    accuracy = {}
    for parse in ("evalscope", "evalscope_1.11.0", "answer_marker"):
        [log] = eval(
            winogrande(data_files=str(VALIDATION), answer_parse=parse),
            model=model,
            limit=2,
            log_dir=str(tmp_path / parse),
            display="none",
        )
        assert log.results is not None and log.samples is not None
        metrics = log.results.scores[0].metrics
        accuracy[parse] = (metrics["accuracy"].value, metrics["parse_failure_rate"].value)
        if parse == "evalscope":
            score = log.samples[0].scores["option_letter_scorer"]  # type: ignore[index]
            assert (score.answer, score.metadata) == ("B", {"rule": "answer_marker"})
    # 'answer: a' is no answer for evalscope (case-sensitive), A for answer_marker
    assert accuracy == {
        "evalscope": (0.5, 0.5),
        "evalscope_1.11.0": (0.0, 0.5),
        "answer_marker": (0.5, 0.5),
    }


@pytest.mark.slow
def test_run_config_sends_evalscopes_settings_and_parses_as_evalscope(tmp_path: Path) -> None:
    with LoopbackServer(lambda request: "ANSWER: $B$") as server:
        log = config_log(CONFIG, server.base_url, tmp_path, "-T", f"data_files={VALIDATION}")
    assert log.status == "success" and log.results is not None
    assert log.eval.task == "benchmarks/winogrande"
    assert log.eval.task_args["profile"] == "evalscope_1.14.1"
    assert log.eval.metadata is not None and log.eval.metadata["answer_parse"] == "evalscope"
    assert log.eval.task_args["data_files"] == str(VALIDATION)
    assert log.eval.config.retry_on_error == 3
    assert log.plan.config.temperature == 0
    assert len(server.requests) == 5
    for request in server.requests:
        assert {key for key in request if key not in ("messages", "model")} == {"temperature"}
        assert request["temperature"] == 0
    # '$B$' is B for evalscope 1.14.1 (targets B A B A B)
    assert log.results.scores[0].metrics["accuracy"].value == pytest.approx(3 / 5)
