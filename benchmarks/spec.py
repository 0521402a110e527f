"""What each benchmark declares once: its task, its scores, its data, its offline rules.

Every ``benchmarks/<name>.py`` ends with a ``SPEC = BenchmarkSpec(...)``, which
``benchmarks.catalog`` finds; the registry, the offline models, ``benchmarks.compare``, the
docs' tables, ``bench/`` and the generic tests read the specs, so no list of the benchmarks
is kept by hand (docs/development.md, "How a benchmark is put together").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    from inspect_ai import Task

    from benchmarks.data.source import HubDataset
    from benchmarks.profiles import Profile

# A numpy array of floats; a string, so that numpy is not imported here.
FloatArray: TypeAlias = "npt.NDArray[np.float64]"


@dataclass(frozen=True)
class CompareMetric:
    """One metric as ``benchmarks.compare`` recomputes it from per-question sums.

    ``mean_of``: the metric is the mean of this value key; a proportion
    (Wilson, Newcombe, McNemar) when ``proportion`` and every value is 0 or 1
    (several epochs can make it fractional), else bootstrapped like a ratio.
    Otherwise ``ratio`` computes it from the sums (columns in ``value_keys``
    order) and the question count.
    """

    name: str
    mean_of: str | None = None
    ratio: Callable[[FloatArray, int], FloatArray] | None = None
    proportion: bool = True


@dataclass(frozen=True)
class KnownQuestion:
    """A bundled question for the offline oracle: texts that identify it in a prompt, the
    reply that answers it, and (for log-likelihood scoring) the text that a request for the
    right option ends with."""

    keys: tuple[str, ...]
    reply: str
    likely: str | None = None


@dataclass(frozen=True)
class FormerVersions:
    """Earlier task versions whose logs ``benchmarks.compare`` reads as the current one
    (they asked and scored the same; ids and recorded arguments differ): in a log of one
    of ``versions``, ids that fully match ``pattern`` (if any) become
    ``pattern.sub(replacement, id)``, each task argument of ``added_args`` that the
    log does not record counts as recorded with the value given there (how those
    versions behaved), each sample's metadata becomes ``metadata(metadata)`` (if
    given: the breakdown fields the current version adds, derived from those the sample has), and a
    recorded value of ``renamed_values`` ((argument, former value) -> value) counts as
    its new name.
    """

    versions: tuple[str, ...]
    pattern: re.Pattern[str] | None = None
    replacement: str = ""
    added_args: Mapping[str, object] = field(default_factory=dict)
    metadata: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    renamed_values: Mapping[tuple[str, str], str] = field(default_factory=dict)

    def current_args(self, args: Mapping[str, Any]) -> dict[str, Any]:
        """A log's task arguments as the current version names them (``added_args`` filled in,
        renamed values under their new names)."""
        return {
            name: self.renamed_values.get((name, value), value) if isinstance(value, str) else value
            for name, value in {**self.added_args, **args}.items()
        }

    def current(self, sample_id: str) -> str:
        """``sample_id`` as the current task version writes it."""
        if self.pattern is None or not self.pattern.fullmatch(sample_id):
            return sample_id
        return self.pattern.sub(self.replacement, sample_id)


# The bundled sample's files ({split: path}) -> the questions the oracle knows.
OracleRule = Callable[[Mapping[str, str]], list[KnownQuestion]]


@dataclass(frozen=True)
class OfferedOptions:
    """How the offline random model tells this benchmark's multiple-choice prompt and
    answers it: ``letters`` gives the option letters a prompt offers (none: not such a
    prompt); the reply is ``reply`` with ``{letter}`` one of them, drawn at random."""

    letters: Callable[[str], list[str]]
    reply: str = "{letter}"


@dataclass(frozen=True)
class Listing:
    """The benchmark's row in the README's table of benchmarks (markdown cells)."""

    measures: str
    default_data: str
    reference: str
    metrics: str


@dataclass(frozen=True)
class BenchmarkSpec:
    """One benchmark, as the rest of the package and the tests know it.

    Attributes:
        name: Task name (``inspect eval benchmarks/<name>``) and module name.
        title: Name in prose (``TriviaQA``).
        task: The ``@task`` function.
        version: The task's version (its ``Task``'s, in the log): raised when a question,
            prompt or score changes under the same arguments.
        scorer: The scorer's registry name, as logs record it.
        other_scorers: The scorers some profiles use instead (Winogrande's
            ``loglikelihood_choice``), with the same values.
        value_keys: Keys of the scorer's value dict, or ``()`` for a single
            value (``"C"``/``"I"``, the default).
        compare_metrics: The metrics ``benchmarks.compare`` recomputes.
        category_metrics: Those of ``compare_metrics`` also reported per
            category of each field of ``breakdowns``.
        breakdowns: Sample metadata fields the metrics are broken down by.
        order: Place in every listing (``python -m benchmarks``, the docs' tables).
        headline: The first metric of a run: the number the docs page calls the
            headline, the viewer's Score column (default ``accuracy``).
        listing: The README's row (what it measures, its data, its reference).
        dataset: The default data, a Hub dataset at its pinned revision (None: not on
            the Hub; docs/offline.md lists the revisions).
        oracle: The offline oracle's rule for the bundled sample (None: each bundled
            sample known by its question text and answered with its target, as
            ``offered_options.reply`` writes a letter).
        offered_options: How the offline random model tells this benchmark's
            multiple-choice prompts (None: it asks for free text).
        profiles: The reference profiles, by name (``profile=``).
        judged: Graded by the SimpleQA judge (judge agreement applies).
        former_versions: Earlier task versions ``benchmarks.compare`` reads as the
            current one.
    """

    name: str
    title: str
    task: Callable[..., Task]
    version: str
    scorer: str
    order: int
    listing: Listing
    dataset: HubDataset | None
    # a single value (C/I) whose mean is the accuracy, as a letter scorer gives
    value_keys: tuple[str, ...] = ()
    compare_metrics: tuple[CompareMetric, ...] = (CompareMetric("accuracy", mean_of="correct"),)
    category_metrics: tuple[str, ...] = ()
    breakdowns: tuple[str, ...] = ()
    headline: str = "accuracy"
    oracle: OracleRule | None = None
    offered_options: OfferedOptions | None = None
    profiles: Mapping[str, Profile] = field(default_factory=dict)
    judged: bool = False
    other_scorers: tuple[str, ...] = ()
    former_versions: FormerVersions | None = None

    def known_questions(self, files: Mapping[str, str]) -> list[KnownQuestion]:
        """The bundled questions the offline oracle answers (``files``: the bundled
        sample's, by split): the spec's ``oracle`` rule, or each sample known by its
        question's text and its choices, answered with its target (as the random model's
        reply writes a letter)."""
        if self.oracle is not None:
            return self.oracle(files)
        reply = self.offered_options.reply if self.offered_options is not None else "{letter}"
        questions = []
        for sample in self.task(bundled_sample=True).dataset:
            text = sample.input if isinstance(sample.input, str) else sample.input[-1].text
            keys = (text, *(sample.choices or []))
            questions.append(KnownQuestion(keys, reply.format(letter=sample.target)))
        return questions

    @property
    def columns(self) -> tuple[str, ...]:
        """The per-question values ``benchmarks.compare`` reads (``correct`` for a single
        value)."""
        return self.value_keys or ("correct",)

    @property
    def docs_page(self) -> str:
        return f"docs/{self.name}.md"

    @property
    def bundled_sample(self) -> str:
        """The folder of the bundled sample: its rows, and ``SOURCE.md`` (its provenance and
        licence)."""
        return f"benchmarks/data/samples/{self.name}"
