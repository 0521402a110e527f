"""Per-question score tables of a log: each question's score under one scorer, epochs averaged."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from inspect_ai.scorer import Score, value_to_float

from benchmarks.compare.logs import CompareError, SampleRecord, TaskLog, read_samples
from benchmarks.spec import FloatArray

MISSING_CATEGORY = "(none)"
# Breakdown field -> per question, the categories it counts in: one, or several when its
# metadata value is a list (ScienceQA's paper_context: a question with a hint and an
# image counts in TXT and in IMG).
Categories = dict[str, list[tuple[str, ...]]]

_to_float = value_to_float()


@dataclass
class ScoreTable:
    """Per-question scores of one log under one scorer (epochs averaged): ``values`` is
    (questions, components), ``ids`` its rows; a question with an error, or without this score
    in some epoch, is in ``unscored`` instead."""

    ids: list[str]
    values: FloatArray
    categories: Categories
    targets: dict[str, str]
    unscored: list[str]
    epochs: int
    judge_failures: int = 0


def score_components(score: Score, log: TaskLog, sample: SampleRecord) -> list[float]:
    """The components of one score value, as floats."""
    value, keys = score.value, log.spec.value_keys
    if not keys:
        return [_to_float(value)]
    if not isinstance(value, dict) or any(key not in value for key in keys):
        raise CompareError(
            f"{log.name}, sample {sample.id} (epoch {sample.epoch}): score value "
            f"{value!r:.80} lacks the keys {', '.join(keys)} of {log.spec.scorer}."
        )
    return [float(value[key]) for key in keys]  # type: ignore[arg-type]


def score_table(log: TaskLog, samples: Sequence[SampleRecord], scorer: str) -> ScoreTable:
    """Per-question scores under ``scorer``, the mean over epochs."""
    first: dict[str, SampleRecord] = {}  # each question's first sample: metadata, target
    scored: dict[str, list[list[float]]] = defaultdict(list)  # its scored epochs' components
    failed: set[str] = set()
    judge_failures = 0
    for sample in samples:
        sample_id = str(sample.id)
        first.setdefault(sample_id, sample)
        score = (sample.scores or {}).get(scorer)
        if sample.error is not None or score is None:
            failed.add(sample_id)
            continue
        scored[sample_id].append(score_components(score, log, sample))
        if isinstance(score.value, dict) and score.value.get("judge_failure"):
            judge_failures += 1
    # Sorted: the bootstrap's draws map to questions by row, so a log's sample order
    # (completion order in .eval files) must not change the numbers.
    ids = sorted(sample_id for sample_id in first if sample_id not in failed)
    # The mean over epochs: each question's epochs summed in the log's order, in one pass.
    epochs = [scored[i] for i in ids]
    counts = [len(question) for question in epochs]
    sums = np.zeros((len(ids), len(log.spec.columns)))
    values = np.array([v for question in epochs for v in question]).reshape(-1, sums.shape[1])
    np.add.at(sums, np.repeat(np.arange(len(ids)), counts), values)
    return ScoreTable(
        ids=ids,
        values=sums / np.array(counts).reshape(-1, 1),
        categories={
            name: [_categories((first[i].metadata or {}).get(name)) for i in ids]
            for name in log.spec.breakdowns
        },
        targets={i: _target_text(sample.target) for i, sample in first.items()},
        unscored=sorted(failed),
        epochs=max(Counter(str(sample.id) for sample in samples).values(), default=0),
        judge_failures=judge_failures,
    )


def scorer_names(samples: Sequence[SampleRecord]) -> list[str]:
    """Score names present in the log's samples, in first-seen order."""
    return list(dict.fromkeys(name for sample in samples for name in sample.scores or {}))


def no_score(log: TaskLog, wanted: str, present: list[str]) -> CompareError:
    return CompareError(
        f"{log.name}: no score named {wanted!r} in the samples (found: "
        f"{', '.join(present) or 'none'})."
    )


def load_table(log: TaskLog, scorer: str | None) -> ScoreTable:
    """The log's scores under ``scorer``: by default the task's own (a named one must exist)."""
    samples = read_samples(log)
    present = scorer_names(samples)
    own = [log.spec.scorer, *log.spec.other_scorers]
    wanted = scorer or next((name for name in own if name in present), own[0])
    if wanted not in present:
        raise no_score(log, wanted, present)
    return score_table(log, samples, wanted)


def _target_text(target: str | list[str]) -> str:
    return target if isinstance(target, str) else "\n".join(target)


def _categories(value: object) -> tuple[str, ...]:
    """A question's categories in one breakdown field: each entry of a list value."""
    values = value if isinstance(value, list) else [value]
    return tuple(MISSING_CATEGORY if v is None else str(v) for v in values) or (MISSING_CATEGORY,)
