"""
WinoGrande: An Adversarial Winograd Schema Challenge at Scale

Keisuke Sakaguchi, Ronan Le Bras, Chandra Bhagavatula, Yejin Choi
https://arxiv.org/abs/1907.10641

Two-choice fill-in-the-blank (``_``) questions, asked as evalscope 1.14.1's
``winogrande`` benchmark asks them (modelscope/evalscope,
``evalscope/benchmarks/winogrande/winogrande_adapter.py``; the same prompt
since 1.11.0): 0-shot, one user message in evalscope's single-answer
multiple-choice template (``evalscope/utils/multi_choices.py``), options
lettered A/B, temperature 0. Accuracy is on the letter of the last
``ANSWER: X`` in the reply; ``answer_parse="evalscope"`` reads replies as
evalscope 1.14.1 does (``evalscope_<release>`` as an earlier release did).
Demonstrations, when asked for, follow the layout of evalscope's multiple-choice
few-shot template as read from its source (not run against evalscope: its
Winogrande benchmark is 0-shot, which the peer test covers).

# 0-shot on the 1,267 validation questions
inspect eval benchmarks/winogrande.py --model openai/gpt-4o-mini

# evalscope 1.14.1's winogrande: prompt, reply parsing, generation settings
inspect eval --run-config configs/winogrande_evalscope.yaml --model openai/gpt-4o-mini

# 5-shot, demonstrations drawn from the winogrande_xl train split
inspect eval benchmarks/winogrande.py --model openai/gpt-4o-mini -T shots=5
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal, get_args

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import generate

from benchmarks.fewshot import SeededDraws
from benchmarks.fewshot_prompt import FEWSHOT_KEY
from benchmarks.lazy_dataset import dataset_from_rows
from benchmarks.lazy_modules import LazyModule
from benchmarks.loading import DataError, DataFiles, LoadedSplit, load_split
from benchmarks.mcq import option_letter_scorer
from benchmarks.mcq_prompt import mcq_prompt
from benchmarks.parameters import ParameterCheck
from benchmarks.records import field
from benchmarks.registry_names import namespaced
from benchmarks.sample_data import data_files_for

if TYPE_CHECKING:
    import datasets
else:
    datasets = LazyModule("datasets")

DATASET_PATH = "allenai/winogrande"
DEFAULT_CONFIG = "winogrande_xl"
CONFIGS = tuple(f"winogrande_{size}" for size in ("xs", "s", "m", "l", "xl", "debiased"))
EVAL_SPLITS = ("validation", "train")
FEWSHOT_SPLIT = "train"
REQUIRED_COLUMNS = ("sentence", "option1", "option2", "answer")
ANSWER_LETTERS = {"1": "A", "2": "B"}
AnswerParse = Literal[
    "answer_marker",
    "evalscope",
    "evalscope_1.14.1",
    "evalscope_1.14.0",
    "evalscope_1.13.0",
    "evalscope_1.12.0",
    "evalscope_1.11.1",
    "evalscope_1.11.0",
]
ANSWER_PARSES: tuple[str, ...] = get_args(AnswerParse)

QUESTION_TEMPLATE = (
    "Answer the following multiple choice question. The entire content of your response "
    "should be of the following format: 'ANSWER: [LETTER]' (without quotes) where [LETTER] "
    "is one of {letters}.\n\n{question}\n\n{options}"
)
OPTION_LINE = "{letter}) {choice}"
DEMONSTRATION_TEMPLATE = "{question}\n{options}\nANSWER: {answer}"
FEWSHOT_PREAMBLE = "Here are some examples of how to answer similar questions:\n\n"


@task(
    name=namespaced("winogrande", __name__),
    description="Winogrande 0-shot two-choice MCQ (evalscope template): letter accuracy",
)
def winogrande(
    shots: int = 0,
    dataset_config: str = DEFAULT_CONFIG,
    eval_split: str = "validation",
    num_examples: int | None = None,
    fewshot_seed: int = 1234,
    answer_parse: AnswerParse = "answer_marker",
    dataset_path: str | None = None,
    data_files: DataFiles | None = None,
    bundled_sample: bool = False,
) -> Task:
    """Winogrande as a two-choice question answered with ``ANSWER: A|B``.

    Args:
        shots: Demonstrations before each question, drawn from the ``train``
            split of ``dataset_config`` (0, the reference, loads no train split).
        dataset_config: Hub config, one of ``winogrande_xs``, ``_s``, ``_m``,
            ``_l``, ``_xl``, ``_debiased``; they differ only in their train
            split (validation is the same 1,267 rows in every config).
        eval_split: Split evaluated (``test`` has empty answers and is refused).
        num_examples: Evaluate only the first this many rows (None: all). Unlike
            ``--limit``, rows past it are never built.
        fewshot_seed: Seed of the demonstration draws.
        answer_parse: ``answer_marker`` reads the last ``ANSWER: X`` only (a
            reply without one is a parse failure); ``evalscope`` is evalscope
            1.14.1's rule (case-sensitive letter, ``A/B`` or ``A and B`` is no
            answer, ``$\\boxed{B}$`` is B, falling back to the last capital
            letter of the reply); ``evalscope_<release>`` is the rule of that
            release (1.11.0, 1.11.1, 1.12.0, 1.13.0, 1.14.0 or 1.14.1).
        dataset_path: Hub id, local snapshot folder or local data file.
        data_files: Local file for ``eval_split``, or mapping split -> file
            (with ``shots`` > 0 the mapping needs a ``train`` entry).
        bundled_sample: Read the few real rows shipped with the package instead
            of the Hub or a file (a try-out, offline; not a measurement).
    """
    num_examples = _check_parameters(
        shots=shots,
        dataset_config=dataset_config,
        eval_split=eval_split,
        fewshot_seed=fewshot_seed,
        answer_parse=answer_parse,
        num_examples=num_examples,
    )
    data_files = data_files_for(
        "winogrande",
        bundled_sample,
        dataset_path,
        data_files,
        splits=[eval_split, *([FEWSHOT_SPLIT] if shots > 0 else [])],
    )

    def load(split: str) -> LoadedSplit:
        return load_split(
            benchmark="Winogrande",
            hub_path=DATASET_PATH,
            config=dataset_config,
            split=split,
            dataset_path=dataset_path,
            data_files=data_files,
            required_columns=REQUIRED_COLUMNS,
            single_file_split=eval_split,
        )

    eval_rows = load(eval_split)
    demonstrations: WinograndeDemonstrations | None = None
    if shots > 0:
        demonstrations = WinograndeDemonstrations(load(FEWSHOT_SPLIT), shots, fewshot_seed)

    def build(row: int, record: dict[str, Any]) -> Sample:
        sample = record_to_sample(record, sample_id=f"{dataset_config}_{eval_split}_{row}")
        if demonstrations is not None:
            assert sample.metadata is not None
            sample.metadata[FEWSHOT_KEY] = demonstrations.drawn(row)
        return sample

    dataset = dataset_from_rows(
        eval_rows,
        build,
        name=f"{dataset_config}_{eval_split}",
        size=num_examples,
        columns=REQUIRED_COLUMNS,
    )
    return Task(
        name="benchmarks/winogrande",
        dataset=dataset,
        solver=[
            mcq_prompt(
                QUESTION_TEMPLATE,
                OPTION_LINE,
                demonstrations=demonstrations,
                demonstration_template=DEMONSTRATION_TEMPLATE,
                fewshot_preamble=FEWSHOT_PREAMBLE,
            ),
            generate(),
        ],
        scorer=option_letter_scorer(answer_parse),
        # evalscope's default for API models; greedy decoding for local checkpoints.
        config=GenerateConfig(temperature=0.0),
        metadata={"shots": shots, "dataset_config": dataset_config},
        version="1.2.0",
    )


def record_to_sample(record: dict[str, Any], sample_id: str) -> Sample:
    """One question: the sentence, its two options, the target letter."""
    sentence, options, letter = read_question(record)
    return Sample(id=sample_id, input=sentence, choices=options, target=letter, metadata={})


def read_question(record: dict[str, Any]) -> tuple[str, list[str], str]:
    """The sentence, the two options and the target letter of one row."""
    sentence = _non_empty_string(record, "sentence")
    options = [_non_empty_string(record, "option1"), _non_empty_string(record, "option2")]
    answer = record.get("answer")
    letter = ANSWER_LETTERS.get(answer) if isinstance(answer, str) else None
    if letter is None:
        hint = " (answers are empty in the test split)" if answer == "" else ""
        raise ValueError(f"field 'answer' should be '1' or '2', got {answer!r:.60}{hint}")
    return sentence, options, letter


class WinograndeDemonstrations(Mapping[int, dict[str, Any]]):
    """The train split's rows as demonstrations (``question``, ``choices``, ``answer``),
    and the draw of each evaluated question (``SeededDraws``): the layout after
    evalscope's multiple-choice few-shot template (``mcq_prompt``)."""

    def __init__(self, fewshot_split: LoadedSplit, shots: int, seed: int) -> None:
        self.rows: datasets.Dataset = fewshot_split.rows
        self.where = fewshot_split.where
        self.draws = SeededDraws(len(self.rows), shots, seed, where=f"winogrande: {self.where}")
        self.read: dict[int, dict[str, Any]] = {}

    def drawn(self, position: int) -> list[int]:
        """The demonstrations of the question at ``position``, each read and checked."""
        indices = self.draws.for_question(position)
        for index in indices:
            self[index]
        return indices

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.rows)))

    def __getitem__(self, index: int) -> dict[str, Any]:
        cached = self.read.get(index)
        if cached is None:
            try:
                sentence, options, letter = read_question(self.rows[index])
            except (KeyError, TypeError, ValueError) as ex:
                message = ex.args[0] if isinstance(ex, KeyError) and ex.args else ex
                raise DataError(f"{self.where}, row {index}: {message}") from ex
            cached = {"question": sentence, "choices": options, "answer": letter}
            self.read[index] = cached
        return cached


def _non_empty_string(record: dict[str, Any], name: str) -> str:
    value = field(record, name, str)
    if not value.strip():
        raise ValueError(f"field {name!r} is empty")
    return value


def _check_parameters(
    *,
    shots: int,
    dataset_config: str,
    eval_split: str,
    fewshot_seed: int,
    answer_parse: str,
    num_examples: int | None,
) -> int | None:
    """Fail on the first bad parameter; return ``num_examples`` (None: all)."""
    check = ParameterCheck("winogrande")
    check.choice("answer_parse", answer_parse, ANSWER_PARSES)
    check.integer("shots", shots, minimum=0)
    check.choice("dataset_config", dataset_config, CONFIGS)
    if eval_split == "test":
        check.fail(
            "the test split's answers are empty (the labels are withheld for the "
            "leaderboard); use eval_split='validation'."
        )
    check.choice("eval_split", eval_split, EVAL_SPLITS)
    if shots > 0 and eval_split == FEWSHOT_SPLIT:
        check.fail(
            "shots > 0 draws demonstrations from the train split, which is also "
            "eval_split: demonstrations would leak answers; use eval_split='validation'."
        )
    check.integer("fewshot_seed", fewshot_seed)
    return check.optional_integer("num_examples", num_examples, minimum=1, none_means="all rows")
