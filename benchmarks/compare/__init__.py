"""Paired model comparison, per-category intervals and judge agreement from Inspect logs."""

from benchmarks.compare.analysis import DEFAULT_RESAMPLES, DEFAULT_SEED, Settings
from benchmarks.compare.api import compare_logs, describe_logs
from benchmarks.compare.logs import CompareError

__all__ = [
    "DEFAULT_RESAMPLES",
    "DEFAULT_SEED",
    "CompareError",
    "Settings",
    "compare_logs",
    "describe_logs",
]
