"""A run split into shards (each task's ``shard`` parameter), and the shards' logs merged
into the whole run's log: ``python -m benchmarks.shards eval|merge`` (docs/scaling.md)."""
