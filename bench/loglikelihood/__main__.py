"""``python -m bench.loglikelihood``: see bench/loglikelihood/speed.py."""

from bench.loglikelihood.speed import main

main()
