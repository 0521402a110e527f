"""Argument types the package's commands share (``python -m benchmarks.compare``,
``python -m benchmarks.shards``): each refuses a bad value with argparse's one line."""

from __future__ import annotations

import argparse


def positive(text: str) -> int:
    """A positive integer (``--resamples``, ``--shards``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value
