"""TriviaQA's prompt parts: the question block, its demonstrations and their draws.

Two formats: this project's (``default``: ``Question: ...\nAnswer:``,
demonstrations answered with ``answer.value``, drawn by ``SeededDraws``) and
lm-evaluation-harness 0.4.13's (``lm_eval``: ``?`` appended, the first alias
as the answer, drawn by ``LmEvalDraws``). The draws are made while the dataset
is loaded (they walk the questions in order) and kept with each sample as row
ids; ``fewshot_prompt`` renders them from ``TriviaQADemonstrations``.

The splits are read in the child process of ``prepared_rows`` in two shapes
that keep only what a sample or a demonstration needs (a train row's answer
holds dozens of aliases; a demonstration shows one), with the evidence text
already cut to ``evidence_max_chars``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from benchmarks.errors import DataError
from benchmarks.fewshot_draws import LmEvalDraws, SeededDraws
from benchmarks.loading import LoadedSplit
from benchmarks.prepared_rows import ROW_HASH, PreparedColumns, PreparedRows, RowsRequest
from benchmarks.records import field, string_list

# prompt_format -> (block template, demonstration answer field); the draw
# follows the format (lm_eval: LmEvalDraws).
PROMPT_FORMATS: dict[str, tuple[str, str]] = {
    "default": ("Question: {question}\nAnswer:", "value"),
    # lm-evaluation-harness 0.4.13 tasks/triviaqa/default.yaml: doc_to_text
    # appends "?" to every question; doc_to_target is the alias list, of which a
    # demonstration shows the first (api/task.py 1092-1102).
    "lm_eval": ("Question: {question}?\nAnswer:", "first_alias"),
}
# Before a block, with the evidence field of include_evidence.
EVIDENCE_FIELD = "{evidence}"
EVIDENCE_TEMPLATE = "Evidence: {evidence}\n"
EVIDENCE_COLUMNS = ("entity_pages", "search_results")
QUESTION_COLUMNS = ("question", "question_id", "answer")
DEMONSTRATION_COLUMNS = ("question", "answer")


def block_template(prompt_format: str, include_evidence: bool) -> str:
    """The template of one demonstration or question block."""
    template = PROMPT_FORMATS[prompt_format][0]
    return EVIDENCE_FIELD + template if include_evidence else template


def evidence_text(record: Mapping[str, Any], max_chars: int) -> str:
    """``Evidence: <documents>\\n`` for a row with evidence documents, else nothing."""
    documents = [
        *(record.get("entity_pages") or {}).get("wiki_context", []),
        *(record.get("search_results") or {}).get("search_context", []),
    ]
    if not documents:
        return ""
    return EVIDENCE_TEMPLATE.format(evidence="\n".join(documents)[:max_chars])


class QuestionShape:
    """In the child: an evaluated row's id, question and answer (aliases, normalized
    aliases, type), and its evidence text when asked for."""

    def __init__(self, loaded: LoadedSplit, request: RowsRequest) -> None:
        self.evidence_chars: int | None = request.options.get("evidence_max_chars")
        evidence = EVIDENCE_COLUMNS if self.evidence_chars is not None else ()
        self.columns: Sequence[str] = (*QUESTION_COLUMNS, *evidence)

    def record(self, row: int, values: dict[str, Any]) -> dict[str, Any]:
        answer = values.get("answer")
        if isinstance(answer, dict):
            answer = {k: answer.get(k) for k in ("aliases", "normalized_aliases", "type")}
        record = {name: values.get(name) for name in QUESTION_COLUMNS} | {"answer": answer}
        if self.evidence_chars is not None:
            record["evidence"] = evidence_text(values, self.evidence_chars)
        return record

    def header(self) -> dict[str, Any]:
        return {}


class DemonstrationShape:
    """In the child: a few-shot row's question, its answer's value and first alias (None
    when missing: checked when the row is drawn), and its evidence text when asked for."""

    def __init__(self, loaded: LoadedSplit, request: RowsRequest) -> None:
        self.evidence_chars: int | None = request.options.get("evidence_max_chars")
        evidence = EVIDENCE_COLUMNS if self.evidence_chars is not None else ()
        self.columns: Sequence[str] = (*DEMONSTRATION_COLUMNS, *evidence)

    def record(self, row: int, values: dict[str, Any]) -> dict[str, Any]:
        answer = values.get("answer")
        aliases = answer.get("aliases") if isinstance(answer, dict) else None
        record = {
            "question": values.get("question"),
            "value": answer.get("value") if isinstance(answer, dict) else None,
            "aliases": aliases[:1] if isinstance(aliases, list) else aliases,
        }
        if self.evidence_chars is not None:
            record["evidence"] = evidence_text(values, self.evidence_chars)
        return record

    def header(self) -> dict[str, Any]:
        return {}


def pool_fields(prompt_format: str, include_evidence: bool, row_hash: bool) -> tuple[str, ...]:
    """The demonstration fields the few-shot pool keeps: what the format shows, and the
    whole-row hash that ``IdenticalRows`` reads once."""
    answer = "aliases" if PROMPT_FORMATS[prompt_format][1] == "first_alias" else "value"
    evidence = ("evidence",) if include_evidence else ()
    return ("question", answer, *evidence, *((ROW_HASH,) if row_hash else ()))


def fewshot_draws(
    fewshot_rows: PreparedColumns,
    eval_rows: PreparedRows,
    shots: int,
    seed: int,
    prompt_format: str,
) -> SeededDraws:
    """The draw rule of ``prompt_format`` over the few-shot split."""
    where = f"triviaqa: {fewshot_rows.where}"
    if prompt_format == "lm_eval":
        copies = IdenticalRows(eval_rows, fewshot_rows)
        return LmEvalDraws(len(fewshot_rows), shots, seed, copies, where=where)
    return SeededDraws(len(fewshot_rows), shots, seed, where=where)


class IdenticalRows:
    """Few-shot rows equal, as whole documents, to the evaluated row at a position.

    lm-evaluation-harness compares the dicts ``datasets`` gives for two rows,
    every column included; the child wrote a hash of each whole row
    (``ROW_HASH``), equal for equal rows. The pool's hashes are read once, here,
    and only its copies of evaluated rows kept.
    """

    def __init__(self, eval_rows: PreparedRows, pool: PreparedColumns) -> None:
        self.eval_hashes: list[str] = [record[ROW_HASH] for record in eval_rows.records]
        evaluated = set(self.eval_hashes)
        self.copies: dict[str, list[int]] = defaultdict(list)
        for index, row_hash in enumerate(pool.drop(ROW_HASH)):
            if row_hash in evaluated:
                self.copies[row_hash].append(index)

    def __call__(self, position: int) -> list[int]:
        return self.copies.get(self.eval_hashes[position], [])


class TriviaQADemonstrations(Mapping[int, dict[str, str]]):
    """The few-shot split's rows as demonstrations: ``question``, ``answer`` (the value,
    or the first alias) and, with evidence, ``evidence``; checked when read."""

    def __init__(self, rows: PreparedColumns, prompt_format: str, include_evidence: bool) -> None:
        self.rows = rows
        self.first_alias = PROMPT_FORMATS[prompt_format][1] == "first_alias"
        self.include_evidence = include_evidence

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.rows)))

    def __getitem__(self, index: int) -> dict[str, str]:
        record = self.rows.record(index)
        try:
            question = field(record, "question", str)
            if self.first_alias:
                answer = string_list(record, "aliases", label="answer.aliases")[0]
            else:
                answer = field({"answer.value": record["value"]}, "answer.value", str)
        except (KeyError, TypeError, ValueError) as ex:
            message = ex.args[0] if ex.args else ex
            raise DataError(f"{self.rows.where}, row {index}: {message}") from ex
        demonstration = {"question": question, "answer": answer}
        if self.include_evidence:
            demonstration["evidence"] = record["evidence"]
        return demonstration
