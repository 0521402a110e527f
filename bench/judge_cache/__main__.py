"""``python -m bench.judge_cache``: see bench/judge_cache/local_judge.py."""

from bench.judge_cache.local_judge import main

main()
