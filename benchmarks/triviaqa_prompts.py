"""TriviaQA prompts: the question block, its demonstrations and their layout.

Two formats: this project's (``default``: ``Question: ...\nAnswer:``,
demonstrations answered with ``answer.value``, drawn by ``SeededDraws``) and
lm-evaluation-harness 0.4.13's (``lm_eval_harness``: ``?`` appended, the first
alias as the answer, drawn by ``LmEvalDraws``); each laid out as one user
message or as user/assistant turns (``fewshot_prompt``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspect_ai.model import ChatMessage

from benchmarks.fewshot import (
    Demonstration,
    IdenticalRows,
    LmEvalDraws,
    SeededDraws,
    fewshot_prompt,
)
from benchmarks.lazy_modules import LazyModule
from benchmarks.loading import DataError, LoadedSplit
from benchmarks.records import field, string_list

if TYPE_CHECKING:
    import pyarrow as pa
else:
    pa = LazyModule("pyarrow")

# prompt_format -> (question block, demonstration answer field); the draw
# follows the format (lm_eval_harness: LmEvalDraws).
PROMPT_FORMATS: dict[str, tuple[str, str]] = {
    "default": ("Question: {question}\nAnswer:", "value"),
    # lm-evaluation-harness 0.4.13 tasks/triviaqa/default.yaml: doc_to_text
    # appends "?" to every question; doc_to_target is the alias list, of which a
    # demonstration shows the first (api/task.py 1092-1102).
    "lm_eval_harness": ("Question: {question}?\nAnswer:", "first_alias"),
}
# Distinct demonstrations rendered before the few-shot columns are read in bulk.
BULK_READ_AFTER = 256
EVIDENCE_TEMPLATE = "Evidence: {evidence}\n"


class FewShotPrompts:
    """Prompt text for the question at each position of the evaluation split.

    Demonstration rows are read one field at a time from the Arrow table, so a
    bounded run never materialises the few-shot split as Python objects; once
    many demonstrations are needed (a full run) the two columns are converted
    at once, which is far cheaper than row by row.
    """

    def __init__(
        self,
        fewshot_split: LoadedSplit | None,
        shots: int,
        seed: int,
        prompt_format: str,
        evidence_max_chars: int | None,
        multiturn: bool,
        eval_rows: LoadedSplit,
    ) -> None:
        self.question_template, answer_field = PROMPT_FORMATS[prompt_format]
        self.evidence_max_chars = evidence_max_chars
        self.multiturn = multiturn
        self.draws: SeededDraws | None = None
        if fewshot_split is None:
            return
        fewshot_rows, self.where = fewshot_split
        self.fewshot_rows = fewshot_rows
        where = f"triviaqa: {self.where}"
        if prompt_format == "lm_eval_harness":
            copies = IdenticalRows(eval_rows.rows, fewshot_rows, key="question_id")
            self.draws = LmEvalDraws(len(fewshot_rows), shots, seed, copies, where=where)
        else:
            self.draws = SeededDraws(len(fewshot_rows), shots, seed, where=where)
        table = fewshot_rows.data.table
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
        self.demonstrations: dict[int, Demonstration] = {}
        self.bulk_values: tuple[list[Any], list[Any]] | None = None

    def prompt(self, position: int, record: dict[str, Any]) -> str | list[ChatMessage]:
        question = field(record, "question", str)
        block = self._evidence(record) + self.question_template.format(question=question)
        demonstrations = []
        if self.draws is not None:
            demonstrations = [self._demonstration(i) for i in self.draws.for_question(position)]
        return fewshot_prompt(demonstrations, block, multiturn=self.multiturn)

    def _demonstration(self, index: int) -> Demonstration:
        cached = self.demonstrations.get(index)
        if cached is None:
            if self.bulk_values is None and len(self.demonstrations) >= BULK_READ_AFTER:
                self.bulk_values = (self.questions.to_pylist(), self.answers.to_pylist())
            if self.bulk_values is None:
                record = {"question": self.questions[index].as_py()}
                answer = self.answers[index].as_py()
            else:
                record = {"question": self.bulk_values[0][index]}
                answer = self.bulk_values[1][index]
            where = f"{self.where}, row {index}"
            try:
                question = field(record, "question", str)
                if self.first_alias:
                    answer = string_list({"aliases": answer}, "aliases", label="answer.aliases")[0]
                answer = field({"answer.value": answer}, "answer.value", str)
            except (KeyError, TypeError, ValueError) as ex:
                raise DataError(f"{where}: {ex.args[0] if ex.args else ex}") from ex
            evidence = ""
            if self.evidence_max_chars is not None:
                evidence = self._evidence(self.fewshot_rows[index])
            cached = (evidence + self.question_template.format(question=question), answer)
            self.demonstrations[index] = cached
        return cached

    def _evidence(self, record: dict[str, Any]) -> str:
        if self.evidence_max_chars is None:
            return ""
        documents = [
            *(record.get("entity_pages") or {}).get("wiki_context", []),
            *(record.get("search_results") or {}).get("search_context", []),
        ]
        if not documents:
            return ""
        text = "\n".join(documents)[: self.evidence_max_chars]
        return EVIDENCE_TEMPLATE.format(evidence=text)
