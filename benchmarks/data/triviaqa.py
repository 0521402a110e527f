"""TriviaQA's rows: the pinned Hub dataset, the prompt formats, what is kept of each split
as it is read (a demonstration keeps one of a train row's dozens of aliases; the evidence
is cut to ``evidence_max_chars``), the few-shot draws (made while loading, kept with each
sample as row ids under ``metadata["fewshot"]``), a row as a sample, and the bundled
questions the offline oracle answers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample

from benchmarks.data.fewshot_draws import FEWSHOT_KEY, DemonstrationPool, LmEvalDraws, SeededDraws
from benchmarks.data.records import field, string_list
from benchmarks.data.rows import ROW_ERROR, Rows, local_records
from benchmarks.data.source import DataSource, HubDataset, samples_dataset
from benchmarks.profiles.triviaqa import TriviaQAProfile
from benchmarks.runtime.task_parameters import fail
from benchmarks.spec import KnownQuestion

DATASET = HubDataset(
    "mandarjoshi/trivia_qa",
    revision="0f7faf33a3908546c6fd5b73a660e0f8ff173c2f",
    pinned_by="huggingface/smollm (`text/evaluation/smollm2/tasks.py`) and "
    "Aleph-Alpha-Research/eval-framework (`hf-dataset-revisions.json`, for "
    "`rc.wikipedia.nocontext`)",
)
EVIDENCE_COLUMNS = ("entity_pages", "search_results")
QUESTION_COLUMNS = ("question", "question_id", "answer")
DEMONSTRATION_COLUMNS = ("question", "answer")
# A row's evidence documents as its prompt block shows them (include_evidence).
EVIDENCE_TEMPLATE = "Evidence: {evidence}\n"
# prompt_format -> (block template, demonstration answer field); the draw follows the
# format (lm_eval: LmEvalDraws). The question block is solvers/triviaqa.py's block_template.
PROMPT_FORMATS: dict[str, tuple[str, str]] = {
    "canonical": ("Question: {question}\nAnswer:", "value"),
    # lm-evaluation-harness 0.4.13 tasks/triviaqa/default.yaml: doc_to_text
    # appends "?" to every question; doc_to_target is the alias list, of which a
    # demonstration shows the first (api/task.py 1092-1102).
    "lm_eval": ("Question: {question}?\nAnswer:", "first_alias"),
}


@dataclass
class TriviaQAData:
    """The evaluated questions, the pool their demonstrations come from, the config read."""

    dataset: MemoryDataset
    demonstrations: TriviaQADemonstrations | None
    config: str


def triviaqa_data(
    source: DataSource,
    settings: TriviaQAProfile,
    *,
    fewshot_split: str,
    eval_split: str,
    num_examples: int | None,
    include_evidence: bool,
    evidence_max_chars: int,
) -> TriviaQAData:
    """Read the splits, draw every question's demonstrations (checking each drawn row
    now, before any model call) and build the dataset."""
    config: str = settings.dataset_config
    if include_evidence:
        config = config.removesuffix(".nocontext")
    row_hash = settings.prompt_format == "lm_eval" and settings.shots > 0
    evidence = EVIDENCE_COLUMNS if include_evidence else ()
    chars = evidence_max_chars if include_evidence else None
    rows_options: dict[str, Any] = {
        "config": config,
        "single_file_split": eval_split,
        "row_hash": row_hash,
    }
    eval_rows = source.rows(
        eval_split,
        columns=(*QUESTION_COLUMNS, *evidence),
        shape=lambda values: question_fields(values, chars),
        **rows_options,
    )
    demonstrations = None
    if settings.shots > 0:
        pool = source.rows(
            fewshot_split,
            columns=(*DEMONSTRATION_COLUMNS, *evidence),
            shape=lambda values: demonstration_fields(values, chars),
            **rows_options,
        )
        demonstrations = TriviaQADemonstrations(pool, eval_rows, settings, include_evidence)

    def build(row: int, record: dict[str, Any]) -> Sample:
        sample = record_to_sample(record)
        assert sample.metadata is not None
        if include_evidence:
            sample.metadata["evidence"] = record["evidence"]
        if demonstrations is not None:
            sample.metadata[FEWSHOT_KEY] = demonstrations.drawn(row)
        return sample

    dataset = samples_dataset(
        eval_rows,
        build,
        name=f"trivia_qa_{config}_{eval_split}",
        num_examples=num_examples,
        unique_field="question_id",
    )
    return TriviaQAData(dataset, demonstrations, config)


def check_splits(shots: int, fewshot_split: str, eval_split: str) -> None:
    """The rules between the two splits and the shots."""
    if eval_split == "test":
        fail(
            "triviaqa",
            "the test split has no answers (they are withheld); use eval_split='validation'.",
        )
    if shots > 0 and fewshot_split == "test":
        fail(
            "triviaqa",
            "the test split has no answers to demonstrate with; use fewshot_split='train'.",
        )
    if shots > 0 and fewshot_split == eval_split:
        fail(
            "triviaqa",
            f"fewshot_split and eval_split are both {eval_split!r}: demonstrations "
            "would leak evaluation answers; draw them from 'train'.",
        )


def evidence_text(record: Mapping[str, Any], max_chars: int) -> str:
    """``Evidence: <documents>\\n`` for a row with evidence documents, else nothing."""
    documents = [
        *(record.get("entity_pages") or {}).get("wiki_context", []),
        *(record.get("search_results") or {}).get("search_context", []),
    ]
    if not documents:
        return ""
    return EVIDENCE_TEMPLATE.format(evidence="\n".join(documents)[:max_chars])


def question_fields(values: dict[str, Any], evidence_chars: int | None) -> dict[str, Any]:
    """What an evaluated row keeps: its id, question and answer (aliases, normalized
    aliases, type), and its evidence text when asked for."""
    answer = values.get("answer")
    if isinstance(answer, dict):
        answer = {k: answer.get(k) for k in ("aliases", "normalized_aliases", "type")}
    record = {name: values.get(name) for name in QUESTION_COLUMNS} | {"answer": answer}
    if evidence_chars is not None:
        record["evidence"] = evidence_text(values, evidence_chars)
    return record


def demonstration_fields(values: dict[str, Any], evidence_chars: int | None) -> dict[str, Any]:
    """What a few-shot row keeps: its question, its answer's value and first alias (None when
    missing: checked when the row is drawn), and its evidence text when asked for."""
    answer = values.get("answer")
    aliases = answer.get("aliases") if isinstance(answer, dict) else None
    record = {
        "question": values.get("question"),
        "value": answer.get("value") if isinstance(answer, dict) else None,
        "aliases": aliases[:1] if isinstance(aliases, list) else aliases,
    }
    if evidence_chars is not None:
        record["evidence"] = evidence_text(values, evidence_chars)
    return record


class TriviaQADemonstrations(DemonstrationPool[dict[str, str]]):
    """The few-shot split's rows as demonstrations (``question``, ``answer``: the value, or
    the first alias, and with evidence ``evidence``), drawn by ``prompt_format``'s rule."""

    def __init__(
        self, pool: Rows, eval_rows: Rows, settings: TriviaQAProfile, include_evidence: bool
    ) -> None:
        shots, seed, where = settings.shots, settings.fewshot_seed, f"triviaqa: {pool.where}"
        if settings.prompt_format == "lm_eval":
            draws: SeededDraws = LmEvalDraws(pool, eval_rows, shots, seed, where=where)
        else:
            draws = SeededDraws(len(pool), shots, seed, where=where)
        super().__init__(pool, draws, self.demonstration)
        self.first_alias = PROMPT_FORMATS[settings.prompt_format][1] == "first_alias"
        self.include_evidence = include_evidence
        # Rows a demonstration cannot be made of, found in one pass (a fraction of checking
        # each drawn row); reading one raises its error.
        answer, usable = ("aliases", _alias_list) if self.first_alias else ("value", _string)
        self.unusable = {
            row
            for row, record in enumerate(pool.records)
            if ROW_ERROR in record
            or not isinstance(record.get("question"), str)
            or not usable(record.get(answer))
        }

    def check(self, indices: Iterable[int]) -> None:
        for index in indices:
            if index in self.unusable:
                self[index]

    def demonstration(self, record: dict[str, Any]) -> dict[str, str]:
        question = field(record, "question", str)
        if self.first_alias:
            answer = string_list(record, "aliases", label="answer.aliases")[0]
        else:
            answer = field({"answer.value": record["value"]}, "answer.value", str)
        demonstration = {"question": question, "answer": answer}
        if self.include_evidence:
            demonstration["evidence"] = record["evidence"]
        return demonstration


def _string(value: Any) -> bool:
    return isinstance(value, str)


def _alias_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(a, str) for a in value)


# An alias without TriviaQA's stop characters survives the cut whole.
STOP_CHARACTERS = set("\n.,")


def oracle_questions(files: Mapping[str, str]) -> list[KnownQuestion]:
    """The bundled questions: known by their question block; answered with the canonical
    answer (``answer.value``, which a reader of the log recognises: "Milan", not the first
    alias "The weather in Milan"), or, when the stop sequences would cut it, with the first
    alias they leave whole."""
    questions = []
    for _, record in local_records(Path(files["validation"])):
        answer = record["answer"]
        candidates = [answer["value"], *answer["aliases"]]
        whole = [a for a in candidates if not STOP_CHARACTERS & set(a)]
        reply = whole[0] if whole else answer["value"]
        questions.append(KnownQuestion((f"Question: {record['question']}",), reply))
    return questions


def record_to_sample(record: dict[str, Any]) -> Sample:
    """One question: its text, its aliases as the target, the normalized aliases."""
    answer = field(record, "answer", dict)
    aliases = string_list(answer, "aliases", label="answer.aliases")
    normalized_aliases = string_list(
        answer, "normalized_aliases", label="answer.normalized_aliases"
    )
    return Sample(
        id=field(record, "question_id", str),
        input=field(record, "question", str),
        target=aliases,
        metadata={"normalized_aliases": normalized_aliases, "answer_type": answer.get("type")},
    )
