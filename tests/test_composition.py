"""Users change a benchmark's solver chain and reuse its prompt solvers
(examples/custom_chain.py, the README's "Change the solver chain").

- A benchmark's prompt and reply are one step, its task's ``setup``, which Inspect runs
  even when a solver replaces the task's own: Inspect's ``chain_of_thought()`` +
  ``generate()`` given in its place (``eval(solver=...)``, ``--solver``, ``task_with``) runs
  on every benchmark's own prompt (demonstrations and images included), the step then
  building the prompt alone, and the scorer reads its reply.
- The log's plan shows that step, naming the prompt's solver and ``generate()``; a sample
  runs it as one solver span with one state event.
- A log-likelihood profile scores with its own step: another solver is refused before any
  request, with one line.
- ``fewshot_prompt`` in a task of the user's own: the exact prompt, the same
  demonstrations every run; a draw never comes up short.
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
from inspect_ai.model import ChatMessage, ContentImage
from inspect_ai.solver import chain, chain_of_thought, generate

from benchmarks.catalog import specs
from benchmarks.models.offline import oracle_reply
from benchmarks.solvers.fewshot import fewshot_prompt
from benchmarks.solvers.mcq import context_text
from benchmarks.solvers.prompt_preview import prompt_messages
from benchmarks.spec import BenchmarkSpec
from benchmarks.triviaqa import triviaqa
from benchmarks.winogrande import winogrande
from tests.inspect_cli import inspect_cli
from tests.scripted import last_user_text, scripted_model

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "custom_chain.py"
# Inspect's chain_of_thought() template, around the prompt's last user message
COT = (
    "\n{prompt}\n\nBefore answering, reason in a step-by-step manner as to get the right "
    'answer. Provide your answer at the end on its own line in the form "ANSWER: $ANSWER" '
    "(without quotes) where $ANSWER is the answer to the question.\n"
)


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("custom_chain", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def roles(spec: BenchmarkSpec) -> dict[str, str] | None:
    return {"grader": "benchmarks/oracle"} if spec.judged else None


@pytest.mark.parametrize(
    ("name", "profile"),
    [(name, profile) for name, spec in specs().items() for profile in spec.profiles],
)
def test_a_reasoning_chain_in_place_of_the_tasks_runs_on_its_own_prompt(
    name: str, profile: str, tmp_path: Path
) -> None:
    spec = specs()[name]
    task = spec.task(bundled_sample=True, profile=profile)
    if getattr(task.early_stopping, "refusal", None) is not None:
        return  # a log-likelihood profile: refused (below)
    # one question, one with an image where the benchmark has them
    first = next((i for i, s in enumerate(task.dataset) if not isinstance(s.input, str)), 0)
    task.dataset = task.dataset[first : first + 1]
    expected = [prompt_messages(task, sample) for sample in task.dataset]
    seen: list[list[ChatMessage]] = []

    def model(messages: list[ChatMessage]) -> str:
        if "Gold target:" not in messages[-1].text:  # not the SimpleQA judge's
            seen.append(messages)
        return oracle_reply(messages[-1].text) or ""

    (log,) = eval(
        task,
        solver=chain(chain_of_thought(), generate()),
        model=scripted_model(model),
        model_roles=roles(spec),  # type: ignore[arg-type]
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    assert [step.solver.rsplit("/", 1)[-1] for step in log.plan.steps][-2:] == [
        "chain_of_thought",
        "generate",
    ]
    assert len(seen) == len(expected) == 1
    for sent, own in zip(seen, expected, strict=True):
        # the benchmark's own messages (images, turns, system message), its last user
        # message's text in chain_of_thought's template
        assert [m.role for m in sent] == [m.role for m in own]
        assert sent[-1].text == COT.format(prompt=own[-1].text)
        assert [m.text for m in sent[:-1]] == [m.text for m in own[:-1]]
        # the image parts too (sent as the data URIs Inspect makes of the cached files)
        assert images(sent[-1]) == images(own[-1])


def images(message: ChatMessage) -> int:
    return sum(
        isinstance(part, ContentImage)
        for part in message.content
        if not isinstance(message.content, str)
    )


@pytest.mark.parametrize("spec", specs().values(), ids=lambda spec: spec.name)
def test_a_sample_runs_its_prompt_and_reply_as_one_solver_step(
    spec: BenchmarkSpec, tmp_path: Path
) -> None:
    # Inspect records a state difference of the whole task state for each step of a plan:
    # the prompt in a step of its own would cost that again (solvers/prompted.py)
    (log,) = eval(
        spec.task(bundled_sample=True, num_examples=2),
        model="benchmarks/oracle",
        model_roles=roles(spec),  # type: ignore[arg-type]
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success" and log.samples is not None
    (step,) = log.plan.steps
    if step.solver != "generate":  # the bare question (SimpleQA's default)
        assert step.solver == "benchmarks/prompt_then_generate"
        assert step.params["generation"]["name"] in (
            "generate",
            "benchmarks/generate_from_token_ids",
            "benchmarks/option_loglikelihoods",
        )
    for sample in log.samples:
        solver_spans = [
            event.name
            for event in sample.events
            if isinstance(event, SpanBeginEvent) and event.type == "solver"
        ]
        states = [event for event in sample.events if isinstance(event, StateEvent)]
        assert (len(solver_spans), len(states)) == (1, 1), solver_spans


def test_task_with_a_solver_of_ones_own_keeps_the_demonstrations(tmp_path: Path) -> None:
    seen: list[str] = []

    def model(messages: list[ChatMessage]) -> str:
        seen.append(last_user_text(messages))
        return "Sarah is the better surgeon.\nANSWER: A"

    benchmark = winogrande(bundled_sample=True, num_examples=1, shots=2)
    own_prompt = prompt_messages(benchmark, benchmark.dataset[0])[-1].text
    (log,) = eval(
        task_with(benchmark, solver=example().cot()),
        model=scripted_model(model),
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    assert own_prompt.count("ANSWER: ") == 3  # two demonstrations, then the question
    assert seen == [COT.format(prompt=own_prompt)]


@pytest.mark.slow
def test_a_solver_from_the_command_line_runs_on_the_benchmarks_prompt(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            inspect_cli(),
            *("eval", "benchmarks/winogrande", "-T", "bundled_sample=true", "-T", "shots=3"),
            *("-T", "num_examples=2", "--solver", f"{EXAMPLE.relative_to(ROOT)}@cot"),
            *("--model", "benchmarks/oracle", "--log-dir", str(tmp_path)),
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
        "prompt_then_generate",
        "chain_of_thought",
        "generate",
    ]
    for sample in log.samples:
        text = sample.messages[0].text
        # three demonstrations, the template's instruction, chain_of_thought's
        assert text.count("ANSWER: ") == 5 and text.endswith(COT.split("{prompt}")[1])


LOGLIKELIHOOD_REFUSAL = (
    "winogrande: the solver {solver} cannot run this profile's samples: it scores each option "
    "by log-likelihood, which only the task's own solver requests. Run a generative profile "
    "with it (-T scoring=generate, or -T profile=default), or run the task without a solver "
    "of your own."
)


def test_a_solver_in_place_of_the_loglikelihood_step_is_refused_before_any_request(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    calls: list[object] = []

    def model(messages: list[ChatMessage]) -> str:
        calls.append(messages)
        return "A"

    (log,) = eval(
        winogrande(bundled_sample=True, profile="lm_eval_0.4.13"),
        solver=chain(chain_of_thought(), generate()),
        model=scripted_model(model),
        log_dir=str(tmp_path),
        display="none",
    )
    refusal = LOGLIKELIHOOD_REFUSAL.format(solver="inspect_ai/chain")
    assert calls == [] and not log.samples and log.results is None
    assert refusal in capfd.readouterr().err.splitlines()


@pytest.mark.slow
def test_a_command_line_solver_on_a_loglikelihood_profile_is_refused_in_one_line(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [
            inspect_cli(),
            *("eval", "benchmarks/winogrande", "-T", "bundled_sample=true"),
            *("-T", "profile=lm_eval_0.4.13", "--solver", f"{EXAMPLE.relative_to(ROOT)}@cot"),
            *("--model", "benchmarks/oracle", "--log-dir", str(tmp_path)),
        ],
        cwd=ROOT,
        env={key: value for key, value in os.environ.items() if key != "INSPECT_DISPLAY"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = done.stdout + done.stderr
    assert "Traceback" not in output
    solver = f"{EXAMPLE.relative_to(ROOT)}@cot"
    assert LOGLIKELIHOOD_REFUSAL.format(solver=solver) in " ".join(output.split())
    (path,) = tmp_path.glob("*.eval")
    assert not read_eval_log(str(path)).samples  # no sample ran


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


def test_the_prompt_step_alone_refuses_a_sample_whose_demonstrations_it_lacks(
    tmp_path: Path,
) -> None:
    # a prompt step of one's own, without the task's pool, on samples that name theirs
    benchmark = winogrande(bundled_sample=True, num_examples=1, shots=2)
    (log,) = eval(
        task_with(benchmark, setup=winogrande_module().winogrande_prompt()),
        model=scripted_model(lambda messages: "ANSWER: A"),
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "error" and log.error is not None
    assert log.error.message == (
        "ValueError(\"mcq_prompt: sample 'validation_0' names demonstrations "
        "(metadata 'fewshot': [28, 7]) but the solver has no pool; pass the task's "
        "demonstrations (its own prompt step, the task's setup, holds them).\")"
    )


def winogrande_module() -> ModuleType:
    import benchmarks.winogrande

    return benchmarks.winogrande


def preview(solver_pool: list[dict[str, str]], sample_id: int | str, shots: int) -> str:
    task = Task(
        dataset=[Sample(id=sample_id, input="Q")],
        setup=fewshot_prompt(solver_pool, "{question}", shots=shots),
        solver=generate(),
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


def test_the_preview_works_inside_a_running_event_loop() -> None:
    task = triviaqa(bundled_sample=True, num_examples=1, shots=0)

    async def in_a_notebook() -> str:
        return prompt_messages(task, task.dataset[0])[-1].text

    assert asyncio.run(in_a_notebook()) == "Question: " + str(task.dataset[0].input) + "\nAnswer:"


def test_a_context_field_with_an_index_or_attribute_is_filled() -> None:
    assert context_text("Context: {hint[0]}\n", {"hint": ["a map"]}) == "Context: a map\n"
    assert context_text("Context: {hint[0]}\n", {"hint": []}) == ""  # empty: left out
    assert context_text("Context: {hint}\n", {"hint": ""}) == ""
