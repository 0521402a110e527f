"""``python -m bench.construction``: see bench/construction/runner.py."""

from bench.construction.runner import main

main()
