"""Paired model comparison, per-category intervals and judge agreement from Inspect logs.

``python -m benchmarks.compare LOG_A LOG_B`` (see docs/compare.md), or from Python
``compare_logs``, ``describe_logs`` and ``judge_agreement``.
"""

from benchmarks.compare.analysis import DEFAULT_RESAMPLES, DEFAULT_SEED, Settings
from benchmarks.compare.api import compare_logs, describe_logs
from benchmarks.compare.judges import JudgeAgreement, judge_agreement
from benchmarks.compare.logs import CompareError

__all__ = [
    "DEFAULT_RESAMPLES",
    "DEFAULT_SEED",
    "CompareError",
    "JudgeAgreement",
    "Settings",
    "compare_logs",
    "describe_logs",
    "judge_agreement",
]
