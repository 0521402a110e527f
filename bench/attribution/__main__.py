"""``python -m bench.attribution``: see bench/attribution/sample_costs.py."""

from bench.attribution.sample_costs import main

main()
