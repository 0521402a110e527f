"""The markdown report of ``bench.throughput``."""

from __future__ import annotations

from typing import Any

from bench.run import fmt

TARGET_RATIO = 1.05
MEMORY_FULL_MB = 400
MEMORY_LIMIT_ABOVE_BARE_MB = 50


def ratio(ours: float | None, bare: float | None) -> float | None:
    """``bare / ours`` of two rates: our time per sample over bare's (1.05 = 5 % slower)."""
    return bare / ours if ours and bare else None


def report(results: dict[str, Any]) -> str:
    info = results["machine"]
    lines = [
        f"Run {results['started']} on {info['cpus']} CPUs ({info['cpu_model']}), "
        f"{info['memory_gb']} GB RAM, Python {info['python']}, "
        + ", ".join(f"{name} {version}" for name, version in info["versions"].items())
        + f"; load average {fmt(info['load_average_start'][0])} at start, "
        f"{fmt(info['load_average_end'][0])} at end; whole run {fmt(results['seconds'], 0)} s. "
        f"{fmt(results['samples'])} samples a run, {results['connections']} connections "
        f"(`--max-connections`), {results['repeat']} runs of each, medians.",
        "",
    ]
    ceiling = results.get("ceiling")
    if ceiling:
        lines += [
            "### The loopback server's own ceiling",
            "",
            "A fast aiohttp client (no Inspect) over the same number of connections, "
            "same request bodies:",
            "",
            "| request body | requests | requests/s |",
            "|---|---|---|",
            *(
                f"| {key} prompt | {fmt(entry['requests'])} | {fmt(entry['requests_per_s'], 0)} |"
                for key, entry in ceiling.items()
            ),
            "",
        ]
    throughput = results.get("throughput")
    if throughput:
        lines += throughput_table(throughput, results.get("lm_eval"))
    if throughput and results.get("fixed"):
        lines += per_sample_table(throughput, results["fixed"], results["samples"])
    memory = results.get("memory")
    if memory:
        lines += memory_table(memory)
    options = results.get("options")
    if options:
        lines += [
            f"### Inspect options, TriviaQA 5-shot, {fmt(options['samples'])} samples",
            "",
            "| options | samples/s | peak RSS MB |",
            "|---|---|---|",
            *(
                f"| `{label}` | {fmt(entry['samples_per_s'], 1)} | {fmt(entry['peak_rss_mb'], 0)} |"
                for label, entry in options.items()
                if isinstance(entry, dict)
            ),
            "",
        ]
    return "\n".join(lines) + "\n"


def verdict(value: float | None) -> str:
    return "–" if value is None else "yes" if value <= TARGET_RATIO else "**no**"


def throughput_table(throughput: dict[str, Any], lm_eval: dict[str, Any] | None) -> list[str]:
    lines = [
        "### Samples per second through HTTP: our task vs a bare Inspect task",
        "",
        "Each run is a fresh `inspect eval` process timed from start to exit (imports "
        "and dataset construction included). Bare: `bench/bare_task.py`, the same "
        "prompt text, targets and image files with `generate()` + `match()` "
        "(SimpleQA: + `model_graded_fact()` with our judge prompt, so both make two "
        "calls a sample). Default logging, and fast: `--no-log-realtime`. Ratio: "
        "our time per sample over bare's, of wall time and of the process's CPU "
        "time (user + system, which the other load on a shared machine disturbs "
        f"less); target at most {TARGET_RATIO:.2f}, judged on CPU.",
        "",
        "| benchmark | logging | ours samples/s | bare samples/s | ratio wall "
        "| ours CPU ms/sample | bare CPU ms/sample | ratio CPU | within 5 % "
        "| ours peak RSS MB | bare peak RSS MB |",
        "|" + "---|" * 11,
    ]
    for key, entry in throughput.items():
        if not isinstance(entry, dict):
            continue
        for mode in ("default", "fast"):
            ours, bare = entry.get(f"ours_{mode}", {}), entry.get(f"bare_{mode}", {})
            wall = ratio(ours.get("samples_per_s"), bare.get("samples_per_s"))
            cpu = ratio(bare.get("cpu_ms_per_sample"), ours.get("cpu_ms_per_sample"))
            cells = [
                key,
                mode,
                fmt(ours.get("samples_per_s"), 1),
                fmt(bare.get("samples_per_s"), 1),
                fmt(wall),
                fmt(ours.get("cpu_ms_per_sample"), 1),
                fmt(bare.get("cpu_ms_per_sample"), 1),
                fmt(cpu),
                verdict(cpu),
                fmt(ours.get("peak_rss_mb"), 0),
                fmt(bare.get("peak_rss_mb"), 0),
            ]
            lines.append("| " + " | ".join(cells) + " |")
            for variant, run in (("ours", ours), ("bare", bare)):
                if run.get("error"):
                    lines.append(f"| {key} | {mode} {variant} error: {run['error'][-200:]!r} |")
    if lm_eval is not None:
        if lm_eval.get("status") == "ok":
            cells = [
                f"triviaqa: lm-evaluation-harness {lm_eval['version']} `local-chat-completions`",
                "its own",
                fmt(lm_eval.get("samples_per_s"), 1),
                "",
                "",
                fmt(lm_eval.get("cpu_ms_per_sample"), 1),
                "",
                "",
                "",
                fmt(lm_eval.get("peak_rss_mb"), 0),
                "",
            ]
            lines.append("| " + " | ".join(cells) + " |")
        else:
            lines.append(f"| lm-evaluation-harness | skipped: {lm_eval.get('reason')} |")
    return [*lines, ""]


def per_sample_table(throughput: dict[str, Any], fixed: dict[str, Any], samples: int) -> list[str]:
    lines = [
        "### Per sample, start-up apart",
        "",
        "CPU of a `--limit 1` run of the same command is each process's fixed cost "
        "(imports, task construction, Inspect building every sample before it applies "
        "`--limit`, log set-up); the rest of a full run's CPU, over its samples, is "
        "the per-sample cost.",
        "",
        "| benchmark | logging | ours fixed CPU s | bare fixed CPU s "
        "| ours per-sample CPU ms | bare per-sample CPU ms | ratio | within 5 % |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for key, entry in throughput.items():
        if not isinstance(entry, dict) or key not in fixed:
            continue
        for mode in ("default", "fast"):
            per_sample = {}
            for variant in ("ours", "bare"):
                total = entry.get(f"{variant}_{mode}", {}).get("cpu_ms_per_sample")
                start = fixed[key].get(f"{variant}_{mode}")
                per_sample[variant] = (
                    (total * samples / 1000 - start) / (samples - 1) * 1000
                    if total is not None and start is not None
                    else None
                )
            value = ratio(per_sample["bare"], per_sample["ours"])
            cells = [
                key,
                mode,
                fmt(fixed[key].get(f"ours_{mode}")),
                fmt(fixed[key].get(f"bare_{mode}")),
                fmt(per_sample["ours"], 1),
                fmt(per_sample["bare"], 1),
                fmt(value),
                verdict(value),
            ]
            lines.append("| " + " | ".join(cells) + " |")
    return [*lines, ""]


def memory_table(memory: dict[str, Any]) -> list[str]:
    lines = [
        f"### ScienceQA peak memory ({fmt(memory['rows'])} test questions, 2,017 with an image)",
        "",
        "Peak RSS of the `inspect eval` process (`ru_maxrss` from `wait4`), default "
        "logging; ours with the image cache warm (as from the second run on), and "
        "once with an empty cache.",
        "",
        "| run | ours MB | bare MB | ours - bare MB | ours, s | bare, s | target | met |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for label, target in (
        ("full", f"ours under {MEMORY_FULL_MB} MB"),
        ("limit10", f"ours at most {MEMORY_LIMIT_ABOVE_BARE_MB} MB above bare"),
    ):
        ours, bare = memory.get(f"ours_{label}", {}), memory.get(f"bare_{label}", {})
        ours_mb, bare_mb = ours.get("peak_rss_mb"), bare.get("peak_rss_mb")
        met = None
        if ours_mb is not None and ours.get("status") == "ok":
            met = (
                ours_mb < MEMORY_FULL_MB
                if label == "full"
                else bare_mb is not None and ours_mb - bare_mb <= MEMORY_LIMIT_ABOVE_BARE_MB
            )
        diff = ours_mb - bare_mb if ours_mb is not None and bare_mb is not None else None
        run = "`--limit 10`" if label == "limit10" else "full run"
        lines.append(
            f"| {run} | {fmt(ours_mb, 0)} "
            f"| {fmt(bare_mb, 0)} | {fmt(diff, 0)} | {fmt(ours.get('wall_s'), 1)} "
            f"| {fmt(bare.get('wall_s'), 1)} | {target} "
            f"| {'–' if met is None else 'yes' if met else '**no**'} |"
        )
        cold = memory.get(f"ours_{label}_cold", {})
        if cold:
            cold_diff = (
                cold["peak_rss_mb"] - bare_mb
                if cold.get("peak_rss_mb") is not None and bare_mb is not None
                else None
            )
            lines.append(
                f"| {run}, first run (empty image cache) | {fmt(cold.get('peak_rss_mb'), 0)} "
                f"| {fmt(bare_mb, 0)} | {fmt(cold_diff, 0)} | {fmt(cold.get('wall_s'), 1)} "
                "| | once per data file and image options | |"
            )
    return [*lines, ""]
