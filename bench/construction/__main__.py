"""``python -m bench.construction``: see bench/construction/timings.py."""

from bench.construction.timings import main

main()
