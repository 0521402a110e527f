"""TriviaQA's prompt parts: the question block, its demonstrations and their draws.

Two formats: this project's (``default``: ``Question: ...\nAnswer:``,
demonstrations answered with ``answer.value``, drawn by ``SeededDraws``) and
lm-evaluation-harness 0.4.13's (``lm_eval_harness``: ``?`` appended, the first
alias as the answer, drawn by ``LmEvalDraws``). The draws are made while the
dataset is loaded (they walk the questions in order) and kept with each
sample as row ids; ``fewshot_prompt`` renders them from
``TriviaQADemonstrations``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from benchmarks.fewshot import IdenticalRows, LmEvalDraws, SeededDraws
from benchmarks.lazy_modules import LazyModule
from benchmarks.loading import DataError, LoadedSplit
from benchmarks.records import field, string_list

if TYPE_CHECKING:
    import pyarrow as pa
else:
    pa = LazyModule("pyarrow")

# prompt_format -> (block template, demonstration answer field); the draw
# follows the format (lm_eval_harness: LmEvalDraws).
PROMPT_FORMATS: dict[str, tuple[str, str]] = {
    "default": ("Question: {question}\nAnswer:", "value"),
    # lm-evaluation-harness 0.4.13 tasks/triviaqa/default.yaml: doc_to_text
    # appends "?" to every question; doc_to_target is the alias list, of which a
    # demonstration shows the first (api/task.py 1092-1102).
    "lm_eval_harness": ("Question: {question}?\nAnswer:", "first_alias"),
}
# Before a block, with the evidence field of include_evidence.
EVIDENCE_FIELD = "{evidence}"
EVIDENCE_TEMPLATE = "Evidence: {evidence}\n"
# Distinct demonstrations read one by one before the few-shot columns are read in bulk.
BULK_READ_AFTER = 256


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


def fewshot_draws(
    fewshot_split: LoadedSplit, eval_rows: LoadedSplit, shots: int, seed: int, prompt_format: str
) -> SeededDraws:
    """The draw rule of ``prompt_format`` over the few-shot split."""
    where = f"triviaqa: {fewshot_split.where}"
    if prompt_format == "lm_eval_harness":
        copies = IdenticalRows(eval_rows.rows, fewshot_split.rows, key="question_id")
        return LmEvalDraws(len(fewshot_split.rows), shots, seed, copies, where=where)
    return SeededDraws(len(fewshot_split.rows), shots, seed, where=where)


class TriviaQADemonstrations(Mapping[int, dict[str, str]]):
    """The few-shot split's rows as demonstrations: ``question``, ``answer`` and, with
    evidence, ``evidence``.

    Rows are read one field at a time from the Arrow table, so a bounded run
    never materialises the split as Python objects; once many demonstrations
    are needed (a full run) the two columns are converted at once, which is
    far cheaper than row by row.
    """

    def __init__(
        self, fewshot_split: LoadedSplit, prompt_format: str, evidence_max_chars: int | None
    ) -> None:
        self.rows, self.where = fewshot_split
        self.evidence_max_chars = evidence_max_chars
        answer_field = PROMPT_FORMATS[prompt_format][1]
        table = self.rows.data.table
        answers = table.column("answer").combine_chunks()
        answer_name = "aliases" if answer_field == "first_alias" else "value"
        if not pa.types.is_struct(answers.type) or answers.type.get_field_index(answer_name) < 0:
            raise DataError(
                f"{self.where}: field 'answer.{answer_name}' is missing "
                f"(column 'answer' holds {answers.type})."
            )
        self.questions = table.column("question")
        self.answers = answers.field(answer_name)
        self.first_alias = answer_field == "first_alias"
        self.rendered: dict[int, dict[str, str]] = {}
        self.bulk_values: tuple[list[Any], list[Any]] | None = None

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.rows)))

    def __getitem__(self, index: int) -> dict[str, str]:
        cached = self.rendered.get(index)
        if cached is None:
            cached = self._read(index)
            self.rendered[index] = cached
        return cached

    def _read(self, index: int) -> dict[str, str]:
        if self.bulk_values is None and len(self.rendered) >= BULK_READ_AFTER:
            self.bulk_values = (self.questions.to_pylist(), self.answers.to_pylist())
        if self.bulk_values is None:
            question, answer = self.questions[index].as_py(), self.answers[index].as_py()
        else:
            question, answer = self.bulk_values[0][index], self.bulk_values[1][index]
        try:
            question = field({"question": question}, "question", str)
            if self.first_alias:
                answer = string_list({"aliases": answer}, "aliases", label="answer.aliases")[0]
            answer = field({"answer.value": answer}, "answer.value", str)
        except (KeyError, TypeError, ValueError) as ex:
            raise DataError(f"{self.where}, row {index}: {ex.args[0] if ex.args else ex}") from ex
        demonstration = {"question": question, "answer": answer}
        if self.evidence_max_chars is not None:
            demonstration["evidence"] = evidence_text(self.rows[index], self.evidence_max_chars)
        return demonstration
