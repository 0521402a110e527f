"""``python -m tools.real_model``: see tools/real_model/comparisons.py."""

from tools.real_model.comparisons import main

main()
