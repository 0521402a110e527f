"""``python -m bench.overhead``: see bench/overhead/pairs.py."""

from bench.overhead.pairs import main

main()
