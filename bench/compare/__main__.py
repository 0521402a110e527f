"""``python -m bench.compare``: see bench/compare/log_timing.py."""

from bench.compare.log_timing import main

main()
