"""Tasks registered with Inspect (``inspect eval benchmarks/<name>``)."""

from benchmarks.scienceqa import scienceqa
from benchmarks.simpleqa import simpleqa
from benchmarks.triviaqa import triviaqa
from benchmarks.winogrande import winogrande

__all__ = ["scienceqa", "simpleqa", "triviaqa", "winogrande"]
