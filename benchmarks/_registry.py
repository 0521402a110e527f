"""Tasks registered with Inspect (``inspect eval benchmarks/<name>``)."""

from benchmarks.triviaqa import triviaqa

__all__ = ["triviaqa"]
