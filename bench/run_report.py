"""The markdown report of ``bench.run``, and its targets met or not."""

from __future__ import annotations

import statistics
from typing import Any

from bench.case_tasks import LIMIT
from bench.workloads import case

# The targets (medians on the 2-core machine).
LIMIT_BEYOND_IMPORTS_S = 1.0
TRIVIAQA_FULL_BEYOND_IMPORTS_S = 3.0
TRIVIAQA_FULL_PEAK_RSS_MB = 600
E2E_RATIO = 1.10
E2E_RATIO_IMAGES = 1.25
LOG_BYTES_PER_SOURCE_BYTE = 1.5


def fmt(value: Any, digits: int = 2) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def status_row(key: str, entry: dict[str, Any], columns: int) -> str:
    reason = entry.get("status", "error")
    detail = (entry.get("error") or "").splitlines()
    text = f"{reason}: {detail[-1][:120]}" if detail else reason
    return "| " + " | ".join([key, text] + [""] * (columns - 2)) + " |"


def report(results: dict[str, Any]) -> str:
    lines: list[str] = []
    info = results["machine"]
    lines += [
        f"Run {results['started']} on {info['cpus']} CPUs ({info['cpu_model']}), "
        f"{info['memory_gb']} GB RAM, Python {info['python']}, "
        + ", ".join(f"{name} {version}" for name, version in info["versions"].items())
        + f"; load average {fmt(info['load_average_start'][0])} at start, "
        f"{fmt(info['load_average_end'][0])} at end; whole run {fmt(results['seconds'], 0)} s.",
        "",
    ]

    construct = results.get("construct")
    if construct:
        lines += [
            "### Task construction (medians; seconds beyond the imports)",
            "",
            f"Python start-up (`python -c pass`): {fmt(results['python_startup_s'])} s. "
            f"A bare Inspect `eval()` of {LIMIT} samples (generate() + match(), TriviaQA "
            f"prompts, fresh process): {fmt(results['bare_eval10'].get('eval_s'))} s, "
            "the floor of the `eval(limit=10)` column. "
            f"`full` builds every sample; `limit=10` slices `task.dataset[0:{LIMIT}]` and "
            f"builds those; `eval(limit=10)` runs Inspect's `eval()` with `limit={LIMIT}` "
            "(eval set-up included). Built rows: samples the dataset converted "
            "(`built_rows`).",
            "",
            "| benchmark | rows | import inspect_ai | import datasets | import module "
            "| full: construct | full: build all | full: total | full: peak RSS MB "
            "(after imports) | limit=10: total | limit=10: built rows "
            "| eval(limit=10): total | eval(limit=10): built rows |",
            "|" + "---|" * 13,
        ]
        for key, modes in construct.items():
            first = next((m for m in modes.values() if m.get("status") == "ok"), None)
            if first is None:
                lines.append(status_row(key, next(iter(modes.values())), 13))
                continue
            full = modes.get("full", {})
            limited = modes.get("limit10", {})
            evaluated = modes.get("eval10", {})
            imports = [
                statistics.median(
                    m[k] for m in modes.values() if m.get("status") == "ok" and m.get(k)
                )
                for k in ("import_inspect_s", "import_datasets_s", "import_benchmark_s")
            ]
            rss = (
                f"{fmt(full.get('peak_rss_mb'), 0)} ({fmt(full.get('rss_after_imports_mb'), 0)})"
                if full.get("status") == "ok"
                else "–"
            )
            lines.append(
                "| "
                + " | ".join(
                    [
                        key,
                        fmt(first["dataset_len"]),
                        *(fmt(value) for value in imports),
                        fmt(full.get("construct_s")),
                        fmt(full.get("build_s")),
                        fmt(full.get("beyond_imports_s")),
                        rss,
                        fmt(limited.get("beyond_imports_s")),
                        fmt(limited.get("built_rows")),
                        f"{fmt(evaluated.get('beyond_imports_s'))} "
                        f"(eval() {fmt(evaluated.get('eval_s'))})",
                        fmt(evaluated.get("built_rows")),
                    ]
                )
                + " |"
            )
        lines.append("")

    e2e = results.get("e2e")
    if e2e:
        lines += [
            "### End to end per sample: our task vs a bare Inspect task",
            "",
            "Instant scripted model (mockllm, usage set); bare task = "
            "`Task(MemoryDataset([Sample(input=<same prompt text>, target=<same target>)]), "
            "generate(), match())`; same `eval()` settings (`display='none'`, temporary "
            "`log_dir`, default logging); medians of the repeats, after one warm-up eval "
            "each. `ours` is `eval(task, limit=N)`, what a user runs; `pre-sliced` sets "
            "`task.dataset = task.dataset[0:N]` first, so eval() builds only those N "
            "samples. Ratios are of wall time unless marked CPU (process CPU time, "
            "less sensitive to other load). Log bytes: the sample's member of the "
            "`.eval` zip.",
            "",
            "| benchmark | samples | rows built by eval | ours ms/sample "
            "| ours, pre-sliced | bare ms/sample | ratio | ratio, pre-sliced "
            "| ratio CPU | ratio CPU, pre-sliced | log KB/sample ours | bare |",
            "|" + "---|" * 12,
        ]
        for key, entry in e2e.items():
            if entry.get("status") != "ok":
                lines.append(status_row(key, entry, 12))
                continue
            baselines = [("bare", key)]
            if "bare_judged_wall_s" in entry:
                baselines.append(("bare_judged", f"{key} vs bare + `model_graded_fact()`"))
            if "bare_same_input_wall_s" in entry:
                baselines.append(("bare_same_input", f"{key} vs bare with the same images"))
            for bare, label in baselines:
                suffix = "" if bare == "bare" else "_vs_" + bare.removeprefix("bare_")
                n = entry["samples"]
                lines.append(
                    "| "
                    + " | ".join(
                        [
                            label,
                            fmt(n),
                            f"{fmt(entry['ours_built_rows'])} of {fmt(entry['dataset_len'])}",
                            fmt(1000 * entry["ours_wall_s"] / n, 1),
                            fmt(1000 * entry["ours_sliced_wall_s"] / n, 1),
                            fmt(1000 * entry[f"{bare}_wall_s"] / n, 1),
                            fmt(entry[f"ratio_wall{suffix}"]),
                            fmt(entry[f"ratio_wall_sliced{suffix}"]),
                            fmt(entry[f"ratio_cpu{suffix}"]),
                            fmt(entry[f"ratio_cpu_sliced{suffix}"]),
                            fmt(entry["ours_sample_bytes_compressed"] / 1000, 1),
                            fmt(entry[f"{bare}_sample_bytes_compressed"] / 1000, 1),
                        ]
                    )
                    + " |"
                )
        lines.append("")

    scorers = results.get("scorers")
    if scorers:
        lines += [
            "### Scorer throughput (scorer coroutine called directly, one at a time)",
            "",
            "| benchmark | scorer | scores/s | Inspect `match()` on the same states, scores/s |",
            "|---|---|---|---|",
        ]
        for key, entry in scorers.items():
            if key in ("status", "process_wall_s"):
                continue
            if not isinstance(entry, dict) or "scorers" not in entry:
                lines.append(status_row(key, entry if isinstance(entry, dict) else {}, 4))
                continue
            for name, rate in entry["scorers"].items():
                lines.append(
                    f"| {key} | {name} | {fmt(rate, 0)} | {fmt(entry['match_baseline'], 0)} |"
                )
        if scorers.get("status") not in (None, "ok"):
            lines.append(status_row("scorers", scorers, 4))
        lines.append("")

    images = results.get("images")
    if images:
        lines += ["### ScienceQA images", ""]
        if images.get("status") != "ok":
            lines.append(f"{images.get('status')}: {images.get('error')}")
        else:
            image_e2e = (e2e or {}).get("scienceqa_image", {})
            source = image_e2e.get("source_png_bytes") or images["source_png_bytes"]
            zipped = image_e2e.get("ours_sample_bytes_compressed")
            unzipped = image_e2e.get("ours_sample_bytes_uncompressed")
            lines += [
                "| measure | value |",
                "|---|---|",
                f"| images timed | {fmt(images['images'])} |",
                f"| source PNG, mean KB | {fmt(images['source_png_bytes'] / 1000, 1)} |",
                f"| base64 of the source bytes (floor), ms/image "
                f"| {fmt(images['base64_floor_ms'], 3)} |",
                f"| `image_data_uri` (decode check + encode), ms/image "
                f"| {fmt(images.get('image_data_uri_ms'), 2)} |",
                f"| data URI, mean KB | {fmt((images.get('data_uri_bytes') or 0) / 1000, 1)} |",
                f"| sample build, ms per image row | {fmt(images.get('build_image_row_ms'), 2)} |",
                f"| sample build, ms per text row | {fmt(images.get('build_text_row_ms'), 3)} |",
            ]
            if zipped is not None:
                lines += [
                    f"| log bytes per image sample, zipped KB (x source PNG) "
                    f"| {fmt(zipped / 1000, 1)} ({fmt(zipped / source)}x) |",
                    f"| log bytes per image sample, JSON KB (x source PNG) "
                    f"| {fmt(unzipped / 1000, 1)} ({fmt(unzipped / source)}x) |",
                    f"| base64 image payloads per logged image sample "
                    f"| {fmt(image_e2e.get('ours_base64_payloads_per_sample'), 1)} |",
                ]
        lines.append("")

    checks = target_checks(results)
    if checks:
        lines += ["### Targets", "", "| target | measured | met |", "|---|---|---|"]
        lines += [
            f"| {name} | {value} | {'yes' if met else '**no**'} |" for name, value, met in checks
        ]
        lines.append("")
    return "\n".join(lines)


def target_checks(results: dict[str, Any]) -> list[tuple[str, str, bool]]:
    checks: list[tuple[str, str, bool]] = []
    for key, modes in (results.get("construct") or {}).items():
        limited = modes.get("limit10", {})
        if limited.get("status") == "ok":
            seconds, built = limited["beyond_imports_s"], limited["built_rows"]
            checks.append(
                (
                    f"{key}: limit=10 slice under {LIMIT_BEYOND_IMPORTS_S:g} s beyond imports, "
                    f"at most {LIMIT} built",
                    f"{fmt(seconds)} s, {fmt(built)} built",
                    seconds < LIMIT_BEYOND_IMPORTS_S and built is not None and built <= LIMIT,
                )
            )
        evaluated = modes.get("eval10", {})
        if evaluated.get("status") == "ok":
            built = evaluated["built_rows"]
            checks.append(
                (
                    f"{key}: eval(limit=10) builds at most {LIMIT} samples",
                    f"{fmt(built)} built",
                    built is not None and built <= LIMIT,
                )
            )
    full = (results.get("construct") or {}).get("triviaqa", {}).get("full", {})
    if full.get("status") == "ok":
        checks.append(
            (
                f"triviaqa: full construction under {TRIVIAQA_FULL_BEYOND_IMPORTS_S:g} s "
                f"beyond imports, peak RSS under {TRIVIAQA_FULL_PEAK_RSS_MB} MB",
                f"{fmt(full['beyond_imports_s'])} s, {fmt(full['peak_rss_mb'], 0)} MB",
                full["beyond_imports_s"] < TRIVIAQA_FULL_BEYOND_IMPORTS_S
                and full["peak_rss_mb"] < TRIVIAQA_FULL_PEAK_RSS_MB,
            )
        )
    for key, entry in (results.get("e2e") or {}).items():
        if entry.get("status") == "ok":
            bound = E2E_RATIO_IMAGES if case(key).image_rows else E2E_RATIO
            checks.append(
                (
                    f"{key}: end-to-end within {bound:.2f}x of bare Inspect",
                    f"{fmt(entry['ratio_wall'])}x wall, {fmt(entry['ratio_cpu'])}x CPU; "
                    f"pre-sliced {fmt(entry['ratio_wall_sliced'])}x wall, "
                    f"{fmt(entry['ratio_cpu_sliced'])}x CPU"
                    + (
                        f"; vs bare + judge {fmt(entry['ratio_wall_vs_judged'])}x wall, "
                        f"pre-sliced {fmt(entry['ratio_wall_sliced_vs_judged'])}x"
                        if "ratio_wall_vs_judged" in entry
                        else ""
                    )
                    + (
                        f"; vs bare with the same images "
                        f"{fmt(entry['ratio_wall_vs_same_input'])}x wall, "
                        f"pre-sliced {fmt(entry['ratio_wall_sliced_vs_same_input'])}x"
                        if "ratio_wall_vs_same_input" in entry
                        else ""
                    ),
                    entry["ratio_wall"] <= bound,
                )
            )
    image_e2e = (results.get("e2e") or {}).get("scienceqa_image", {})
    if image_e2e.get("status") == "ok":
        ratio = image_e2e["ours_sample_bytes_compressed"] / image_e2e["source_png_bytes"]
        checks.append(
            (
                f"scienceqa: log bytes per image sample at most "
                f"{LOG_BYTES_PER_SOURCE_BYTE:g}x the source PNG",
                f"{fmt(ratio)}x (zipped)",
                ratio <= LOG_BYTES_PER_SOURCE_BYTE,
            )
        )
    return checks
