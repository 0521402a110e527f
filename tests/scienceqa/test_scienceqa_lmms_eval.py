"""ScienceQA as lmms-eval 0.7.3 runs it: its reply rule (``answer_parse=lmms_eval``) and the
run config.

lmms-eval 0.7.3's ``sqa_process_results`` (lmms_eval/tasks/scienceqa/utils.py): the
reply is stripped; it is right when its lower case equals the target's, or when it
starts with a capital and a period and that capital's lower case is the target's.
tests/peers/test_lmms_eval_scienceqa.py runs that code against ours.
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest

from benchmarks.scorers.letter_reading import parse_option_letter
from tests.inspect_cli import config_log
from tests.loopback_server import LoopbackServer

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "configs" / "scienceqa_lmms_eval.yaml"
FIVE = list("ABCDE")

# reply, letter read by answer_parse=lmms_eval (lmms-eval 0.7.3), for options A to E
STRICT_TABLE = [
    ("B", "B"),
    (" B", "B"),  # stripped
    ("B\n", "B"),
    ("b", "B"),  # lower case compared
    ("B.", "B"),  # capital and period
    ("B. 4:0", "B"),
    ("b. 4:0", None),  # the period rule wants a capital
    ("F. 4:0", None),  # a capital that is no option
    ("(B)", None),
    ("B)", None),
    ("The answer is B", None),
    ("Answer: B", None),
    ("**B**", None),
    ("", None),
    ("BA", None),
    ("B,", None),
]


@pytest.mark.parametrize(("reply", "letter"), STRICT_TABLE)
def test_the_lmms_eval_parse_is_lmms_eval_0_7_3(reply: str, letter: str | None) -> None:
    assert parse_option_letter(reply, FIVE, strict=True).letter == letter


# Lower case, not upper case, is compared (lmms-eval 0.7.3): three characters decide it,
# with enough options. The Kelvin sign lower-cases to 'k'; 'ı' and 'ſ' upper-case to
# 'I' and 'S' but lower-case to themselves.
UNICODE_TABLE = [
    ("\u212a", "K"),
    ("\u212a. kelvin", "K"),
    ("\u0131", None),
    ("\u017f", None),
]


@pytest.mark.parametrize(("reply", "letter"), UNICODE_TABLE)
def test_case_is_compared_in_lower_case(reply: str, letter: str | None) -> None:
    all_letters = list(string.ascii_uppercase)
    for strict in (True, False):
        assert parse_option_letter(reply, all_letters, strict=strict).letter == letter


@pytest.mark.slow
def test_run_config_sends_lmms_evals_settings(tmp_path: Path) -> None:
    with LoopbackServer(lambda request: "B. because") as server:
        log = config_log(CONFIG, server.base_url, tmp_path, "-T", "bundled_sample=true")
    assert log.status == "success" and log.results is not None and log.samples is not None
    assert log.eval.task == "benchmarks/scienceqa"
    assert log.eval.task_args["profile"] == "lmms_eval_0.7.3"
    assert log.eval.metadata is not None
    assert log.eval.metadata["prompt_format"] == log.eval.metadata["answer_parse"] == "lmms_eval"
    assert log.eval.config.retry_on_error == 3
    assert (log.plan.config.max_tokens, log.plan.config.temperature) == (16, 0)
    assert len(server.requests) == len(log.samples) == 20
    for request in server.requests:
        assert (request["max_tokens"], request["temperature"]) == (16, 0)
        assert "stop" not in request
    # 'B. because' names B: right exactly where the target is B
    right = [s.id for s in log.samples if s.target == "B"]
    scores = {s.id: s.scores["option_letter_scorer"] for s in log.samples if s.scores}
    assert [i for i, score in scores.items() if score.value == "C"] == right
    assert {score.metadata["rule"] for score in scores.values() if score.metadata} == {
        "letter_period"
    }
