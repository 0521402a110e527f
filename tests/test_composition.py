"""Users change a benchmark's solver chain and reuse its prompt solvers
(examples/custom_chain.py, docs in the README's "Change the solver chain").

- Winogrande with Inspect's ``chain_of_thought`` after its own template, by
  ``--solver`` and by ``task_with``: the template is kept, the step added, the
  scorer still reads the final ``ANSWER: X``.
- With shots, the task variant keeps the task's demonstrations; the solver
  given alone (no pool) refuses a sample that names demonstrations.
- ``fewshot_prompt`` in a task of the user's own: the exact prompt, the same
  demonstrations every run; a draw never comes up short; the log's plan names
  the shots and seed the task used.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import subprocess
from pathlib import Path
from types import ModuleType

import pytest
from inspect_ai import Task, eval, task_with
from inspect_ai.dataset import Sample
from inspect_ai.event import SpanBeginEvent, StateEvent
from inspect_ai.log import read_eval_log
from inspect_ai.model import ChatMessage
from inspect_ai.solver import chain, chain_of_thought, generate

from benchmarks.catalog import specs
from benchmarks.data.replaced_solver import (
    PROMPT_OF,
    Replacement,
    command_line_solver,
    instead,
    solver_refusal,
    solver_steps,
    wrapping_tasks,
)
from benchmarks.runtime.errors import TaskParameterError
from benchmarks.solvers.fewshot import fewshot_prompt
from benchmarks.solvers.mcq import context_text
from benchmarks.solvers.prompt_preview import prompt_messages
from benchmarks.solvers.prompted import prompt_solvers
from benchmarks.spec import BenchmarkSpec
from benchmarks.triviaqa import triviaqa
from benchmarks.winogrande import winogrande
from tests.inspect_cli import inspect_cli
from tests.scripted import last_user_text, scripted_model

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "custom_chain.py"
TEMPLATE_END = "Sarah was a much better surgeon than Maria so _ always got the easier cases.\n\n"
COT = (
    "Before answering, reason in a step-by-step manner as to get the right answer. Provide "
    'your answer at the end on its own line in the form "ANSWER: $ANSWER" (without quotes) '
    "where $ANSWER is the answer to the question."
)


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("custom_chain", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def reasoning_then_answer(messages: list[ChatMessage]) -> str:
    """Reasons, then answers A: right for the questions whose target is A."""
    return "Sarah is the better surgeon, so she gets the easier cases.\nANSWER: A"


def test_a_reasoning_step_after_the_benchmark_template(tmp_path: Path) -> None:
    seen: list[str] = []

    def model(messages: list[ChatMessage]) -> str:
        seen.append(last_user_text(messages))
        return reasoning_then_answer(messages)

    (log,) = eval(
        example().winogrande_cot_task(bundled_sample=True, num_examples=2),
        model=scripted_model(model),
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success" and log.samples is not None
    first = seen[[TEMPLATE_END in text for text in seen].index(True)]
    # the benchmark's template, whole, then Inspect's chain-of-thought instruction
    assert first.startswith("\nAnswer the following multiple choice question.")
    assert TEMPLATE_END + "A) Sarah\nB) Maria\n\n" + COT in first
    scores = {s.id: s.scores["option_letter_scorer"] for s in log.samples if s.scores}
    assert {s.answer for s in scores.values()} == {"A"}
    targets = {s.id: s.target for s in winogrande(bundled_sample=True, num_examples=2).dataset}
    assert {i: s.value for i, s in scores.items()} == {
        i: "C" if targets[i] == "A" else "I" for i in targets
    }


@pytest.mark.slow
def test_the_solver_replaces_the_chain_from_the_command_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            inspect_cli(),
            "eval",
            "benchmarks/winogrande",
            "-T",
            "bundled_sample=true",
            "-T",
            "num_examples=2",
            "--solver",
            f"{EXAMPLE.relative_to(ROOT)}@winogrande_cot",
            "--model",
            "benchmarks/oracle",
            "--log-dir",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (path,) = tmp_path.glob("*.eval")
    log = read_eval_log(str(path))
    assert log.status == "success" and log.samples is not None
    assert [step.solver.rsplit("/", 1)[-1] for step in log.plan.steps] == [
        "mcq_prompt",
        "chain_of_thought",
        "generate",
    ]
    assert all(COT in sample.messages[0].text for sample in log.samples)


SOLVER = f"{EXAMPLE.relative_to(ROOT)}@winogrande_cot"
REFUSALS = {
    ("winogrande", "shots=3"): (
        f"--solver {SOLVER} cannot run this task's samples: sample 'validation_0' names "
        "demonstrations (metadata 'fewshot': [28, 7, 0]), which only the task's own prompt "
        "step holds, and --solver replaces that step. Run a task that keeps that step "
        f"instead: inspect eval {SOLVER}_task (with the same -T arguments), or run without "
        "demonstrations (shots=0)."
    ),
    ("winogrande", "profile=lm_eval_0.4.13"): (
        f"--solver {SOLVER} cannot run this task's samples: the profile scores each option "
        "by log-likelihood (sample 'validation_0' carries metadata 'loglikelihood_requests'), "
        "which only the task's own solver requests, and --solver replaces it. Run a "
        "generative profile with it (-T scoring=generate, or -T profile=default), or run the "
        "task without --solver."
    ),
    ("scienceqa", "prompt_format=question_options"): (
        f"--solver {SOLVER} cannot run scienceqa's samples: it builds winogrande's prompt. "
        f"Run it on winogrande (inspect eval benchmarks/winogrande.py --solver {SOLVER}), or "
        "run scienceqa without --solver or with a chain of its own prompt step."
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize(("task", "argument"), REFUSALS)
def test_a_command_line_solver_that_cannot_serve_the_samples_is_refused_before_any(
    tmp_path: Path, task: str, argument: str
) -> None:
    done = subprocess.run(
        [
            inspect_cli(),
            *("eval", f"benchmarks/{task}", "-T", "bundled_sample=true", "-T", argument),
            *("--solver", SOLVER, "--model", "benchmarks/oracle", "--log-dir", str(tmp_path)),
        ],
        cwd=ROOT,
        # Inspect's display "none" (the tests' default) prints no error at all
        env={key: value for key, value in os.environ.items() if key != "INSPECT_DISPLAY"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert " ".join(done.stdout.split()) == REFUSALS[task, argument]
    assert list(tmp_path.iterdir()) == []  # no sample ran, no log was started


IN_PYTHON = "solver=winogrande_cot cannot run "
PYTHON_REFUSALS = {
    ("winogrande", "shots", 3): (
        IN_PYTHON + "this task's samples: sample 'validation_0' names demonstrations "
        "(metadata 'fewshot': [28, 7, 0]), which only the task's own prompt step holds, and "
        "the solver given to eval() replaces that step. Keep the task's prompt step in the "
        "chain (prompt_solvers(task.solver), from benchmarks.solvers.prompted, as "
        "examples/custom_chain.py's winogrande_cot_task does), or run without demonstrations "
        "(shots=0)."
    ),
    ("winogrande", "profile", "lm_eval_0.4.13"): (
        IN_PYTHON + "this task's samples: the profile scores each option by log-likelihood "
        "(sample 'validation_0' carries metadata 'loglikelihood_requests'), which only the "
        "task's own solver requests, and the solver given to eval() replaces it. Run a "
        "generative profile with it (scoring='generate', or profile='default'), or run the "
        "task without solver=."
    ),
    ("scienceqa", "prompt_format", "question_options"): (
        IN_PYTHON + "scienceqa's samples: it builds winogrande's prompt. Run it on winogrande "
        "(eval(benchmarks.winogrande.winogrande(), solver=...)), or run scienceqa without "
        "solver= or with a chain of its own prompt step."
    ),
}


@pytest.mark.parametrize(("task", "name", "value"), PYTHON_REFUSALS)
def test_a_solver_given_to_eval_that_cannot_serve_the_samples_is_refused_before_any(
    tmp_path: Path, task: str, name: str, value: object
) -> None:
    benchmark = specs()[task].task(bundled_sample=True, **{name: value})
    with pytest.raises(TaskParameterError) as refused:
        eval(
            benchmark,
            solver=example().winogrande_cot(),
            model="benchmarks/oracle",
            log_dir=str(tmp_path),
            display="none",
        )
    assert str(refused.value) == PYTHON_REFUSALS[task, name, value]
    assert list(tmp_path.iterdir()) == []  # no sample ran, no log was started


def test_a_solver_given_to_eval_that_keeps_the_tasks_prompt_step_runs(tmp_path: Path) -> None:
    benchmark = winogrande(bundled_sample=True, shots=3, num_examples=2)
    kept = chain(*prompt_solvers(benchmark.solver), chain_of_thought(), generate())
    zero_shot = winogrande(bundled_sample=True, num_examples=2)
    for task, solver in ((benchmark, kept), (zero_shot, example().winogrande_cot())):
        (log,) = eval(
            task,
            solver=solver,
            model=scripted_model(reasoning_then_answer),
            log_dir=str(tmp_path),
            display="none",
        )
        assert log.status == "success" and log.samples is not None and len(log.samples) == 2


def test_every_benchmarks_chain_in_place_of_its_own_and_of_anothers() -> None:
    """Each spec's chain (every profile) serves its own samples, and is refused on another
    benchmark exactly when it builds a prompt of a benchmark that one is not."""
    chains = {
        (name, profile): spec.task(bundled_sample=True, profile=profile)
        for name, spec in specs().items()
        for profile in spec.profiles
    }
    marks = {
        key: {getattr(s, PROMPT_OF) for s in solver_steps(task.solver) if hasattr(s, PROMPT_OF)}
        for key, task in chains.items()
    }
    assert set().union(*marks.values()) <= set(specs())  # a mark names a benchmark
    assert {name for (name, _), marked in marks.items() if name in marked} == {
        name for name, spec in specs().items() if any(marks[name, p] for p in spec.profiles)
    }  # a benchmark's marks are its own
    replacement = Replacement("x.py@s", command_line=True)
    for (name, profile), task in chains.items():
        assert solver_refusal(task.solver, task, replacement) is None, (name, profile)
        for (other, theirs), other_task in chains.items():
            if marks[other, theirs] - marks[name, profile] - {name}:
                with pytest.raises(TaskParameterError, match=f"builds {other}'s prompt"):
                    solver_refusal(other_task.solver, task, replacement)
            else:
                solver_refusal(other_task.solver, task, replacement)


def test_the_refusal_names_the_task_of_the_solvers_module_that_wraps_it(tmp_path: Path) -> None:
    solvers = tmp_path / "solvers.py"
    solvers.write_text(
        "from inspect_ai import task\nfrom inspect_ai.solver import solver\n\n"
        "@solver\ndef terse(): ...\n\n@task\ndef terse_task(): ...\n\n"
        "@task(name='mine')\ndef uses_it(): return terse()\n\n@task\ndef other(): ...\n"
    )
    assert wrapping_tasks(solvers, "terse") == ["terse_task", "uses_it"]
    assert wrapping_tasks(solvers, None) == ["terse_task", "uses_it"]  # the file's only solver
    assert wrapping_tasks(solvers, "other") == []
    assert (
        instead(Replacement(f"{solvers}@other", command_line=True))
        == instead(Replacement("chain_of_thought", command_line=True))
        == (
            "Run a task of your own that keeps the benchmark's prompt step (as "
            "examples/custom_chain.py's winogrande_cot_task does), or run without "
            "demonstrations (shots=0)."
        )
    )
    assert command_line_solver(["/x/inspect", "eval", "t", "--solver=s.py@a"]) == "s.py@a"
    assert command_line_solver(["/x/inspect", "eval", "t", "--solver", "s.py"]) == "s.py"
    assert command_line_solver(["/x/inspect", "eval", "t", "-T", "shots=3"]) is None
    assert command_line_solver(["/x/python", "eval", "--solver", "s.py"]) is None


def test_the_fewshot_solver_in_a_task_of_ones_own(tmp_path: Path) -> None:
    prompts: list[str] = []

    def model(messages: list[ChatMessage]) -> str:
        prompts.append(last_user_text(messages))
        return "Oslo" if "Norway" in prompts[-1].rsplit("\n\n", 1)[-1] else "Santiago"

    runs = [
        eval(
            example().capitals(),
            model=scripted_model(model, name=f"run{run}"),
            log_dir=str(tmp_path),
            display="none",
        )[0]
        for run in range(2)
    ]
    assert all(log.status == "success" for log in runs)
    assert runs[0].results is not None
    assert runs[0].results.scores[0].metrics["accuracy"].value == 1.0
    # three of the four demonstrations, drawn by sample id: the same in both runs
    assert sorted(prompts[:2]) == sorted(prompts[2:])
    chile = next(p for p in prompts if p.endswith("Chile?"))
    assert chile == (
        "What is the capital of Japan? Tokyo\n\n"
        "What is the capital of France? Paris\n\n"
        "What is the capital of Kenya? Nairobi\n\n"
        "What is the capital of Chile?"
    )


def test_the_task_variant_keeps_the_demonstrations(tmp_path: Path) -> None:
    seen: list[str] = []

    def model(messages: list[ChatMessage]) -> str:
        seen.append(last_user_text(messages))
        return reasoning_then_answer(messages)

    args = {"bundled_sample": True, "num_examples": 1, "shots": 2}
    plain = winogrande(**args)
    (log,) = eval(
        example().winogrande_cot_task(**args),
        model=scripted_model(model),
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    own_prompt = prompt_messages(plain, plain.dataset[0])[-1].content
    assert isinstance(own_prompt, str)
    assert own_prompt.count("ANSWER: ") == 3  # two demonstrations, then the question
    assert seen == ["\n" + own_prompt + "\n\n" + COT + "\n"]  # Inspect's template


def test_the_solver_alone_in_a_task_of_ones_own_refuses_a_sample_with_demonstrations(
    tmp_path: Path,
) -> None:
    # task_with builds a task of one's own (checked by nobody before it runs): the prompt
    # step itself refuses a sample whose demonstrations it does not hold
    benchmark = winogrande(bundled_sample=True, num_examples=1, shots=2)
    (log,) = eval(
        task_with(benchmark, solver=example().winogrande_cot()),
        model=scripted_model(reasoning_then_answer),
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "error" and log.error is not None
    assert log.error.message == (
        "ValueError(\"mcq_prompt: sample 'validation_0' names demonstrations "
        "(metadata 'fewshot': [28, 7]) but the solver has no pool; pass the task's "
        "demonstrations, or run a task that keeps the task's own prompt step (as "
        "examples/custom_chain.py's winogrande_cot_task does).\")"
    )


def preview(solver_pool: list[dict[str, str]], sample_id: int | str, shots: int) -> str:
    task = Task(
        dataset=[Sample(id=sample_id, input="Q")],
        solver=[fewshot_prompt(solver_pool, "{question}", shots=shots), generate()],
    )
    return prompt_messages(task, task.dataset[0])[-1].text


def test_a_draw_from_a_list_uses_every_demonstration_whatever_the_sample_id() -> None:
    pool = [{"question": q, "answer": "a"} for q in ("x", "y", "z")]
    for sample_id in (0, 1, 2, "x"):
        assert sorted(preview(pool, sample_id, 3).split("\n\n")) == ["Q", "x a", "y a", "z a"]
    with pytest.raises(ValueError) as raised:
        preview(pool, 1, 4)
    assert str(raised.value) == (
        "fewshot_prompt: shots=4 but the pool has 3 demonstrations for sample 1."
    )


def test_the_plan_names_the_shots_and_seed_the_task_used(tmp_path: Path) -> None:
    (log,) = eval(
        triviaqa(bundled_sample=True, num_examples=1, shots=3, fewshot_seed=7),
        model=scripted_model(lambda messages: "Paris"),
        log_dir=str(tmp_path),
        display="none",
    )
    (step,) = log.plan.steps
    assert step.solver == "benchmarks/prompt_then_generate"
    prompt, generation = step.params["prompt"], step.params["generation"]
    assert (prompt["name"], generation["name"]) == ("benchmarks/fewshot_prompt", "generate")
    assert (prompt["params"]["shots"], prompt["params"]["seed"]) == (3, 7)


@pytest.mark.parametrize("spec", specs().values(), ids=lambda spec: spec.name)
def test_a_sample_runs_its_prompt_and_reply_as_one_solver_step(
    spec: BenchmarkSpec, tmp_path: Path
) -> None:
    # Inspect records a state difference of the whole task state for each step of a
    # chain: the prompt in a step of its own cost that again (solvers/prompted.py)
    (log,) = eval(
        spec.task(bundled_sample=True, num_examples=2),
        model="benchmarks/oracle",
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success" and log.samples is not None
    for sample in log.samples:
        solver_spans = [
            event.name
            for event in sample.events
            if isinstance(event, SpanBeginEvent) and event.type == "solver"
        ]
        states = [event for event in sample.events if isinstance(event, StateEvent)]
        assert (len(solver_spans), len(states)) == (1, 1), solver_spans


def test_the_preview_works_inside_a_running_event_loop() -> None:
    task = triviaqa(bundled_sample=True, num_examples=1, shots=0)

    async def in_a_notebook() -> str:
        return prompt_messages(task, task.dataset[0])[-1].text

    assert asyncio.run(in_a_notebook()) == "Question: " + str(task.dataset[0].input) + "\nAnswer:"


def test_a_context_field_with_an_index_or_attribute_is_filled() -> None:
    assert context_text("Context: {hint[0]}\n", {"hint": ["a map"]}) == "Context: a map\n"
    assert context_text("Context: {hint[0]}\n", {"hint": []}) == ""  # empty: left out
    assert context_text("Context: {hint}\n", {"hint": ""}) == ""
