"""``python -m bench.compare``: see bench/compare/speed.py."""

from bench.compare.speed import main

main()
