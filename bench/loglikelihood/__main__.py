"""``python -m bench.loglikelihood``: see bench/loglikelihood/rounds.py."""

from bench.loglikelihood.rounds import main

main()
