"""The log-likelihood speed bench's table (bench/loglikelihood/rounds.py): medians over the
alternated rounds with their ranges, the ratio taken round by round, for one process and
for the run split into shards."""

from __future__ import annotations

from typing import Any

from bench.loglikelihood.rounds import report


def run(side: str, pair: int, samples_per_s: float, cpu_s: float) -> dict[str, Any]:
    return {
        "comparison": "token-ids",
        "shots": 5,
        "side": side,
        "pair": pair,
        "samples_per_s": samples_per_s,
        "cpu_s": cpu_s,
        "server_cpu_s": cpu_s / 4,  # what the loopback server spent on the same run
    }


def test_the_table_gives_medians_ranges_and_the_ratio_of_each_pair() -> None:
    results = {
        "rows": 1267,
        "connections": 32,
        "lm_eval": "0.4.13",
        "inspect_args": "",
        "runs": [
            run("ours", 0, 30.0, 40.0),
            run("lm-eval", 0, 20.0, 15.0),
            run("lm-eval", 1, 40.0, 17.0),  # the second pair starts with lm-eval
            run("ours", 1, 20.0, 44.0),
            run("ours", 2, 28.0, 42.0),
            run("lm-eval", 2, 10.0, 16.0),
            run("ours-2", 0, 45.0, 50.0),  # the run split into two processes
            run("ours-2", 1, 60.0, 52.0),
            run("ours-2", 2, 15.0, 51.0),
        ],
    }
    lines = report(results, 3).splitlines()
    assert lines[1] == (
        "1267 questions, 32 connections (text: 1), lm-eval 0.4.13, ours as configured, "
        "medians of 3 alternated pairs [min-max]"
    )
    # ratios 1.5, 0.5, 2.8: the median of the pairs' ratios (that of the medians is 1.4)
    assert lines[-2] == (
        "| token-ids | 5 | 1 process | 28.0 [20.0-30.0] | 20.0 [10.0-40.0] | 1.50 [0.50-2.80] "
        "| 42.0 [40.0-44.0] | 16.0 [15.0-17.0] | 10.5 [10.0-11.0] | 4.0 [3.8-4.2] |"
    )
    # two shards against the same rounds' lm-eval: ratios 2.25, 1.5, 1.5
    assert lines[-1] == (
        "| token-ids | 5 | 2 shards | 45.0 [15.0-60.0] | 20.0 [10.0-40.0] | 1.50 [1.50-2.25] "
        "| 51.0 [50.0-52.0] | 16.0 [15.0-17.0] | 12.8 [12.5-13.0] | 4.0 [3.8-4.2] |"
    )
