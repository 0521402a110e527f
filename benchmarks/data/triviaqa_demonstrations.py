"""TriviaQA's demonstrations: the few-shot split's rows read as demonstrations, and the
prompt formats that say which answer a demonstration shows.

Two formats: this project's (``canonical``: ``Question: ...\nAnswer:``,
demonstrations answered with ``answer.value``) and lm-evaluation-harness
0.4.13's (``lm_eval``: ``?`` appended, the first alias as the answer).
``fewshot_prompt`` renders each sample's drawn demonstrations (row ids, drawn
while loading: ``triviaqa_data``) from ``TriviaQADemonstrations``; the question
block is ``block_template`` of ``benchmarks/solvers/triviaqa.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from benchmarks.data.records import field, field_problem, string_list
from benchmarks.data.rows import ROW_ERROR, Rows
from benchmarks.runtime.errors import DataError

# prompt_format -> (block template, demonstration answer field); the draw
# follows the format (lm_eval: LmEvalDraws).
PROMPT_FORMATS: dict[str, tuple[str, str]] = {
    "canonical": ("Question: {question}\nAnswer:", "value"),
    # lm-evaluation-harness 0.4.13 tasks/triviaqa/default.yaml: doc_to_text
    # appends "?" to every question; doc_to_target is the alias list, of which a
    # demonstration shows the first (api/task.py 1092-1102).
    "lm_eval": ("Question: {question}?\nAnswer:", "first_alias"),
}


class TriviaQADemonstrations(Mapping[int, dict[str, str]]):
    """The few-shot split's rows as demonstrations: ``question``, ``answer`` (the value,
    or the first alias) and, with evidence, ``evidence``; checked when read."""

    def __init__(self, rows: Rows, prompt_format: str, include_evidence: bool) -> None:
        self.rows = rows
        self.first_alias = PROMPT_FORMATS[prompt_format][1] == "first_alias"
        self.include_evidence = include_evidence
        # Rows a demonstration cannot be made of, found in one pass (a fraction of checking
        # each drawn row); reading one raises its error.
        answer, usable = ("aliases", _alias_list) if self.first_alias else ("value", _string)
        self.unusable = {
            row
            for row, record in enumerate(rows.records)
            if ROW_ERROR in record
            or not isinstance(record.get("question"), str)
            or not usable(record.get(answer))
        }

    def check(self, indices: Iterable[int]) -> None:
        """Raise the error of the first of ``indices`` no demonstration can be made of."""
        for index in indices:
            if index in self.unusable:
                self[index]

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
            raise DataError(f"{self.rows.at(index)}: {field_problem(ex)}") from ex
        demonstration = {"question": question, "answer": answer}
        if self.include_evidence:
            demonstration["evidence"] = record["evidence"]
        return demonstration


def _string(value: Any) -> bool:
    return isinstance(value, str)


def _alias_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(a, str) for a in value)
