"""Whether two logs compare: the same questions, asked and scored the same way (the rule:
docs/compare.md, "When two logs compare")."""

from __future__ import annotations

from typing import Any

from benchmarks.compare.logs import CompareError, TaskLog
from benchmarks.compare.score_tables import ScoreTable
from benchmarks.scorers.judge import GRADER_ROLE

# Arguments that change neither the questions asked nor how they are scored (``shard``
# selects questions, as ``num_examples`` does; logs from before it record none).
UNCHECKED_TASK_ARGS = frozenset(
    {
        "num_examples",
        "shard",
        "dataset_path",
        "data_files",
        "topic_breakdown",
        "breakdowns",
        "judge_cache",
    }
)
NOT_RECORDED = "<not recorded>"


def check_comparable(baseline: TaskLog, candidate: TaskLog, *, same_judges: bool = True) -> None:
    """Raise ``CompareError`` naming the first difference that makes the logs incomparable;
    ``same_judges``: a judged task's logs must name the same models in the grader role (not
    checked for a re-grading's scorer, which the header does not describe)."""
    a, b = baseline.header.eval, candidate.header.eval

    def differs(what: str, value_a: object, value_b: object, instead: str) -> CompareError:
        return CompareError(
            f"cannot compare {baseline.name} with {candidate.name}: {what} differs "
            f"({value_a!r} in {baseline.file_name}, {value_b!r} in {candidate.file_name}); "
            f"{instead}."
        )

    if baseline.task != candidate.task:
        raise differs("the task", a.task, b.task, "pass two logs of one benchmark")
    if baseline.task_version != candidate.task_version:
        raise differs(
            "the task version", a.task_version, b.task_version,
            "rerun the older run with this package, or compare logs of one task version",
        )  # fmt: skip
    if a.dataset.name != b.dataset.name:
        raise differs(
            "the dataset (name, config and split)", a.dataset.name, b.dataset.name,
            "pass logs of the same dataset config and split",
        )  # fmt: skip
    hash_a = (a.metadata or {}).get("dataset_sha256")
    hash_b = (b.metadata or {}).get("dataset_sha256")
    if hash_a is not None and hash_b is not None and hash_a != hash_b:
        raise differs(
            "the dataset file (sha256)", hash_a, hash_b, "pass logs of the same data file"
        )
    if same_judges and baseline.spec.judged and judges(a.model_roles) != judges(b.model_roles):
        raise CompareError(
            f"cannot compare {baseline.name} with {candidate.name}: they were graded by "
            f"different judges ({', '.join(judges(a.model_roles))} in {baseline.file_name}, "
            f"{', '.join(judges(b.model_roles))} in {candidate.file_name}); a difference would "
            "mix the models' with the judges'. Re-grade one with the other's judge (inspect "
            "score LOG --model-role grader=... --action append, then --scorer <name>1), or "
            "measure the judges with --judges."
        )
    args_a, args_b = baseline.task_args(), candidate.task_args()
    # the profile first: its switches differ because it does, and it is what to rerun with
    names = (set(args_a) | set(args_b)) - UNCHECKED_TASK_ARGS
    for name in sorted(names, key=lambda name: (name != "profile", name)):
        value_a, value_b = args_a.get(name, NOT_RECORDED), args_b.get(name, NOT_RECORDED)
        if value_a != value_b:
            rerun = f"-T {name}={value_a}" if value_a is not NOT_RECORDED else f"no {name}"
            raise differs(
                f"task argument {name!r}", value_a, value_b,
                f"a different {name} asks or scores otherwise: rerun {candidate.file_name}'s "
                f"model with {rerun}, or compare each log with one of its own {name}",
            )  # fmt: skip


def judges(model_roles: dict[str, Any] | None) -> list[str]:
    """The models bound to the grader role, as the log records them (the model under
    test when none: the task then warns that it grades itself)."""
    bound = (model_roles or {}).get(GRADER_ROLE)
    if bound is None:
        return ["(the model under test)"]
    configs = bound if isinstance(bound, list) else [bound]
    return [str(getattr(config, "model", config)) for config in configs]


def check_same_questions(
    baseline: TaskLog, a: ScoreTable, candidate: TaskLog, b: ScoreTable
) -> None:
    """The logs share sample ids, and each shared id has one target."""
    shared = a.targets.keys() & b.targets.keys()
    if not shared:
        raise CompareError(
            f"cannot compare {baseline.name} with {candidate.name}: the logs share no sample id "
            "(not the same dataset); pass logs of the same questions (the same data and split)."
        )
    different = sorted(i for i in shared if a.targets[i] != b.targets[i])
    if different:
        first = different[0]
        raise CompareError(
            f"cannot compare {baseline.name} with {candidate.name}: {len(different)} shared "
            f"sample id(s) have different targets (first: {first}: {a.targets[first]!r:.60} vs "
            f"{b.targets[first]!r:.60}); not the same dataset: pass logs run on the same data."
        )
