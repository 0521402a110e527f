"""The markdown report of ``bench.construction``, and its targets met or not."""

from __future__ import annotations

import statistics
from typing import Any

from bench.common.case_tasks import LIMIT

# The targets (medians on the 2-core machine).
LIMIT_BEYOND_IMPORTS_S = 1.0
TRIVIAQA_FULL_BEYOND_IMPORTS_S = 3.0
TRIVIAQA_FULL_PEAK_RSS_MB = 600


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

    entry_point = results.get("entry_point")
    if entry_point:
        lines += [
            "### The package's entry point (every `inspect` command)",
            "",
            f"Loading Inspect's entry points: {fmt(entry_point['seconds'])} s, adding "
            f"{fmt(entry_point['added_mb'], 1)} MB to a process holding Inspect "
            f"({fmt(entry_point['inspect_mb'], 0)} MB); medians of {entry_point['runs']} "
            "fresh processes.",
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
    return checks
