"""The logs of a run's shards joined into one log of the whole run (docs/scaling.md): the
first shard's header without the shard argument, every shard's samples as they are, the
metrics recomputed by Inspect, and ``eval.shards`` (Inspect's ``EvalShards``) listing the
shard logs, so the viewer, ``inspect score`` and ``benchmarks.compare`` read it as one run.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections import defaultdict
from collections.abc import Sequence
from itertools import zip_longest
from typing import Any

from fsspec.core import url_to_fs
from inspect_ai.log import (
    EvalLog,
    EvalSample,
    EvalShardEntry,
    EvalShards,
    EvalStats,
    read_eval_log,
    recompute_metrics,
)
from inspect_ai.model import ModelUsage

from benchmarks.runtime.task_parameters import SHARD_ARGUMENT, Shard
from benchmarks.shards.log_files import FoundLog, LogError, found_logs

# The run options that change what a sample may do, so shards must share them.
LIMITS = ("message_limit", "token_limit", "time_limit", "working_limit", "cost_limit")
# The generation settings that say how requests were sent (timeouts, retries, connections,
# batching, caching), not what was asked: shards run on other machines may set them apart.
# Inspect's eval sets leave the same ones out of a task's identity (inspect_ai 0.3.285,
# _eval/evalset.py); a field not listed here makes shards that differ in it refused.
HOW_REQUESTS_WERE_SENT = frozenset(
    {
        "adaptive_connections",
        "attempt_timeout",
        "batch",
        "cache",
        "cache_prompt",
        "max_connections",
        "max_retries",
        "stream_idle_timeout",
        "timeout",
    }
)


def shard_of(log: FoundLog) -> Shard:
    assert log.shard is not None  # the logs merged are shards' logs
    return log.shard


def run_identity(log: FoundLog) -> dict[str, Any]:
    """What every shard of one run has alike, by what a refusal calls it."""
    spec = log.header.eval
    config = spec.model_generate_config.model_dump(exclude_none=True)
    plan = log.header.plan
    return {
        "task": spec.task,
        "task version": spec.task_version,
        "task arguments": drop_shard(spec.task_args),
        "model": spec.model,
        "model arguments": spec.model_args,
        "model roles": {k: str(v) for k, v in (spec.model_roles or {}).items()},
        "generation settings": {k: v for k, v in config.items() if k not in HOW_REQUESTS_WERE_SENT},
        "limits": {name: getattr(spec.config, name, None) for name in LIMITS},
        "data": {"dataset": spec.dataset.name, **(spec.metadata or {})},
        "solver plan": [(step.solver, step.params) for step in plan.steps] if plan else None,
        "scorers": [scorer.name for scorer in spec.scorers or []],
        "epochs": (spec.config.epochs, spec.config.epochs_reducer),
        "shard count": shard_of(log).count,
    }


def difference(a: FoundLog, b: FoundLog) -> str | None:
    """The first thing two shards' runs differ in, said with both values (None: alike)."""
    left, right = run_identity(a), run_identity(b)
    for what, value in left.items():
        if value == right[what]:
            continue
        if isinstance(value, dict) and isinstance(right[what], dict):
            # the profile first: the switches it sets differ because it does
            keys = sorted(set(value) | set(right[what]), key=lambda k: (k != "profile", str(k)))
            key = next(k for k in keys if value.get(k) != right[what].get(k))
            return f"{what} ({key}: {value.get(key)!r} against {right[what].get(key)!r})"
        return f"{what} ({value!r} against {right[what]!r})"
    return None


def shard_runs(locations: Sequence[str]) -> tuple[list[list[FoundLog]], list[str]]:
    """The runs whose shards ``locations`` hold (each shard's newest log, in shard order),
    and notes on the logs left aside."""
    notes: list[str] = []
    logs = [log for location in locations for log in found_logs(location)]
    shards = [log for log in logs if log.shard is not None]
    if len(shards) < len(logs):
        notes.append(f"{len(logs) - len(shards)} log(s) of whole runs (no shard) left aside.")
    if not shards:
        raise LogError(
            f"{', '.join(locations)}: no shard logs (runs with -T shard=i/n) to merge; pass "
            "the folders or files the shards wrote their logs to."
        )
    runs: list[list[FoundLog]] = []
    for log in sorted(shards, key=lambda log: (log.created, log.location)):
        for run in runs:
            if difference(run[0], log) is None:
                run.append(log)
                break
        else:
            runs.append([log])
    incomplete = [run for run in runs if missing(run)]
    if len(runs) > 1 and incomplete:
        other = next(run for run in runs if run is not incomplete[0])
        raise LogError(
            f"the logs hold shards of {len(runs)} runs, and {incomplete[0][0].label} "
            f"({shard_list(incomplete[0])}) differs from {other[0].label} "
            f"({shard_list(other)}) in {difference(incomplete[0][0], other[0])}; pass the "
            "shards of one run (or all the shards of each)."
        )
    newest = [newest_attempts(run) for run in runs]
    for run, merged in zip(runs, newest, strict=True):
        if len(run) > len(merged):
            notes.append(
                f"{run[0].label}: {len(run) - len(merged)} other log(s) of its shards (older, "
                "or unfinished) left aside."
            )
    return newest, notes


def missing(logs: list[FoundLog]) -> list[int]:
    """The shards of the run without a log among ``logs``."""
    held = {shard_of(log).index for log in logs}
    return [index for index in range(shard_of(logs[0]).count) if index not in held]


def shard_list(logs: list[FoundLog]) -> str:
    return "shards " + ", ".join(sorted({str(shard_of(log)) for log in logs}))


def newest_attempts(logs: list[FoundLog]) -> list[FoundLog]:
    """Each shard's newest finished log (``logs`` are sorted oldest first), in shard order; a
    shard left out, or one with no finished log, is an error saying what to run."""
    count = shard_of(logs[0]).count
    if absent := missing(logs):
        shown = ", ".join(f"{index}/{count}" for index in absent)
        raise LogError(
            f"{logs[0].label}: no log of shard {shown} among the logs given; run it "
            f"(-T shard={absent[0]}/{count}, the other arguments as the other shards') or "
            "pass the folder that holds its log."
        )
    newest: list[FoundLog] = []
    for index in range(count):
        attempts = [log for log in logs if shard_of(log).index == index]
        finished = [log for log in attempts if log.status == "success"]
        if not finished:
            log = attempts[-1]
            folder = log.name.rstrip("/").rpartition("/")[0] or "."
            running = " (if it is still running, wait for it)" if log.status == "started" else ""
            raise LogError(
                f"{log.name}: shard {log.shard} of {log.label} did not finish (status "
                f"{log.status}){running}; finish it with `inspect eval-retry {log.name} "
                f"--log-dir {folder}`, then merge again."
            )
        newest.append(finished[-1])
    return newest


def read_shard_samples(log: FoundLog) -> list[EvalSample]:
    """A shard's samples, checked to be the whole of its share of the run."""
    try:
        full = read_eval_log(log.location)
    except Exception as ex:  # a truncated upload, a permission: the reader's own words
        raise LogError(f"{log.name}: cannot be read ({type(ex).__name__}: {ex}).") from None
    spec = full.eval
    samples = full.samples or []
    selected = list(spec.dataset.sample_ids or [])
    if spec.config.log_samples is False:
        raise LogError(
            f"{log.name}: shard {log.shard} ran with --no-log-samples: its log holds no "
            "samples to merge; rerun it without that option."
        )
    if spec.config.limit is not None or spec.config.sample_id is not None:
        option = "--limit" if spec.config.limit is not None else "--sample-id"
        raise LogError(
            f"{log.name}: shard {log.shard} ran with {option}, {len(selected)} of its "
            f"{spec.dataset.samples} questions; run every shard without it (to cut a run, "
            "give every shard the same -T num_examples)."
        )
    epochs = spec.config.epochs or 1
    held = {(str(sample.id), sample.epoch) for sample in samples}
    wanted = {(str(id), epoch) for id in selected for epoch in range(1, epochs + 1)}
    if held != wanted:
        lacking = sorted(wanted - held)
        raise LogError(
            f"{log.name}: shard {log.shard} holds {len(held)} of its {len(wanted)} samples "
            f"(missing {', '.join(f'{id} epoch {epoch}' for id, epoch in lacking[:3])}); rerun "
            "it, then merge again."
        )
    return samples


def merged_log(run: list[FoundLog]) -> EvalLog:
    """One log of the whole run from its shards' logs (read here, each checked)."""
    shard_samples = [read_shard_samples(log) for log in run]
    seen: dict[str, FoundLog] = {}
    for shard, samples in zip(run, shard_samples, strict=True):
        for sample in samples:
            other = seen.setdefault(str(sample.id), shard)
            if other is not shard:
                raise LogError(
                    f"sample {sample.id} is in both {other.name} (shard {other.shard}) and "
                    f"{shard.name} (shard {shard.shard}): these are not shards of one run; "
                    "merge the logs of one run's shards only."
                )
    headers = [log.header for log in run]
    first = headers[0]
    spec = first.eval.model_copy(deep=True)
    spec.eval_id = uuid.uuid4().hex
    # not a log of the shards' eval sets (each shard's is in the ledger): an eval set would
    # take it for its unsharded task's
    spec.eval_set_id = None
    # as the unsharded run records them: the default (None) resolved, nothing passed
    spec.task_args = {**spec.task_args, SHARD_ARGUMENT: None}
    spec.task_args_passed = drop_shard(spec.task_args_passed)
    spec.created = min(header.eval.created for header in headers)
    ids = [header.eval.dataset.sample_ids or [] for header in headers]
    # the whole run's order: shard i holds every n-th question from the i-th (shuffled
    # shards, --sample-shuffle, interleave into an order of their own)
    spec.dataset.sample_ids = [id for row in zip_longest(*ids) for id in row if id is not None]
    spec.dataset.samples = sum(header.eval.dataset.samples or 0 for header in headers)
    spec.dataset.shuffled = any(header.eval.dataset.shuffled for header in headers)
    for shard, header in zip(run, headers, strict=True):
        expected = shard_of(shard).size(spec.dataset.samples)
        if header.eval.dataset.samples != expected:
            raise LogError(
                f"{shard.name}: shard {shard.shard} holds {header.eval.dataset.samples} questions, "
                f"where a run of {spec.dataset.samples} gives it {expected}: the shards did not "
                "read the same rows; rerun them on the same data."
            )
    spec.shards = EvalShards(
        selection="ids",
        ledger=[ledger_entry(shard, ids) for shard, ids in zip(run, ids, strict=True)],
    )
    samples = [sample for samples in shard_samples for sample in samples]
    stats = [header.stats for header in headers]
    log = EvalLog(
        version=first.version,
        status="success",
        eval=spec,
        plan=first.plan,
        results=first.results.model_copy(deep=True) if first.results else None,
        stats=EvalStats(  # the first start, the last end, the usage summed
            started_at=min(one.started_at for one in stats),
            completed_at=max(one.completed_at for one in stats),
            model_usage=summed([one.model_usage for one in stats]),
            role_usage=summed([one.role_usage for one in stats]),
        ),
        samples=samples,
    )
    recompute_metrics(log)
    return log


def drop_shard(args: dict[str, Any] | None) -> dict[str, Any]:
    return {name: value for name, value in (args or {}).items() if name != SHARD_ARGUMENT}


def ledger_entry(log: FoundLog, ids: list[Any]) -> EvalShardEntry:
    header = log.header
    digest = hashlib.sha256(json.dumps([str(id) for id in ids]).encode()).hexdigest()
    fs, path = url_to_fs(log.location)
    return EvalShardEntry(
        shard=str(shard_of(log).index),
        log=log.file_name,
        eval_set_id=header.eval.eval_set_id,
        status=header.status,
        samples=len(ids) * (header.eval.config.epochs or 1),
        selected=len(ids),
        selection_digest=digest,
        started_at=header.stats.started_at,
        completed_at=header.stats.completed_at,
        model_usage=header.stats.model_usage,
        role_usage=header.stats.role_usage,
        size=int(fs.size(path)),
    )


def summed(usages: list[dict[str, ModelUsage]]) -> dict[str, ModelUsage]:
    total: dict[str, ModelUsage] = defaultdict(ModelUsage)
    for usage in usages:
        for name, used in usage.items():
            total[name] = total[name] + used
    return dict(total)
