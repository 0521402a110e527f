"""A run split into shards, and the shards' logs merged into the whole run's log.

``python -m benchmarks.shards eval --shards N ...`` runs N ``inspect eval``
processes on this machine and merges them; ``python -m benchmarks.shards merge``
merges the logs of shards run anywhere (``-T shard=i/n`` on any scheduler). The
shards themselves are chosen by each task's ``shard`` parameter (``Shard`` in
``benchmarks/runtime/task_parameters.py``). ``log_files.py`` finds logs at the locations
users name, for these commands and ``python -m benchmarks.compare``.
"""
