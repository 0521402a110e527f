"""The compare speed harness runs end to end on small logs (its timings are not asserted)."""

from __future__ import annotations

from pathlib import Path

from bench.compare.log_timing import main
from benchmarks.compare import Settings, compare_logs


def test_compare_speed_harness_writes_its_report(tmp_path: Path) -> None:
    arguments = ["--samples", "60", "--resamples", "200", "--repeat", "1", "--out", str(tmp_path)]
    assert main(arguments) == 0
    report = (tmp_path / "compare_speed.md").read_text()
    assert report.startswith("Two logs of 60 questions, 200 bootstrap resamples, median of 1:")
    assert [line.split(" | ")[0] for line in report.splitlines() if line.startswith("| ")][1:] == [
        "| triviaqa",
        "| simpleqa",
    ]
    # The synthetic logs are real logs of the two tasks, paired on all 60 questions.
    logs = tmp_path / "compare_logs"
    frame = compare_logs(
        [logs / "simpleqa_a.eval", logs / "simpleqa_b.eval"], settings=Settings(resamples=200)
    )
    assert frame.attrs["pairing"][0]["paired"] == 60
    assert frame[frame["breakdown"] == "topic"]["category"].nunique() == 10
