"""Deterministic full-size local datasets in the upstream schemas, for the harness.

``python -m bench.generate_data`` writes, under ``bench/data/``:

- ``triviaqa/{train,validation}.{parquet,jsonl}``: 61,888 + 7,993 rows in the
  schema of ``mandarjoshi/trivia_qa`` config ``rc.wikipedia.nocontext``
  (parquet carries the ``datasets`` features, as the Hub's parquet does);
- ``simpleqa/simple_qa_test_set.csv``: 4,326 rows, columns ``metadata, problem,
  answer`` (``metadata`` a Python-dict literal string), as openai/simple-evals;
- ``winogrande/validation.jsonl``: 1,267 rows in the fields of
  ``allenai/winogrande`` (``sentence, option1, option2, answer``);
- ``scienceqa/test.parquet``: 4,241 rows in the schema of
  ``derek-thomas/ScienceQA`` split ``test`` (``image`` the ``datasets`` Image
  feature), 2,017 of them with a PNG of 200-700 px sides (drawn diagrams,
  charts and photo-like scenes, compressing like the real ones).

Text is drawn from real rows of ``../shared/data`` when that folder exists
(SimpleQA and Winogrande are then the real files, row for row) and from a
built-in vocabulary otherwise; either way the output depends only on the seed.
Existing outputs with the right row counts are kept (``--force`` rewrites).
"""

from __future__ import annotations

import argparse
import copy
import csv
import hashlib
import io
import json
import math
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

GENERATOR_VERSION = 1
SEED = 20240607
BENCH_DIR = Path(__file__).resolve().parent
DATA_DIR = BENCH_DIR / "data"
SHARED_DATA = BENCH_DIR.parent.parent / "shared" / "data"

TRIVIAQA_TRAIN = "triviaqa/train"
TRIVIAQA_VALIDATION = "triviaqa/validation"
SIMPLEQA_CSV = "simpleqa/simple_qa_test_set.csv"
WINOGRANDE_JSONL = "winogrande/validation.jsonl"
SCIENCEQA_PARQUET = "scienceqa/test.parquet"

IMAGE_SIDE_RANGE = (200, 700)
SIMPLEQA_COLUMNS = ("metadata", "problem", "answer")

# question_id prefixes of the TriviaQA sources and the site each came from.
TRIVIAQA_SOURCES = {
    "tc": "http://www.triviacountry.com/",
    "qb": "http://www.quizballs.com/",
    "qf": "http://www.quiz-zone.co.uk/",
    "qg": "http://www.quizguy.com/",
    "qw": "http://www.quizwise.com/",
    "qz": "http://www.quiz-zone.co.uk/",
    "sfq": "http://www.sfquiz.org.uk/",
    "dpql": "http://www.quizwise.com/",
    "odql": "http://www.odquiz.org.uk/",
    "bt": "http://www.businessballs.com/",
    "wh": "http://www.wrexhamquiz.co.uk/",
    "jp": "http://www.jetpunk.com/",
    "bb": "http://www.businessballs.com/",
}


@dataclass(frozen=True)
class Sizes:
    """Row counts of every generated split (upstream sizes at scale 1)."""

    triviaqa_train: int = 61_888
    triviaqa_validation: int = 7_993
    simpleqa: int = 4_326
    winogrande: int = 1_267
    scienceqa: int = 4_241
    scienceqa_images: int = 2_017

    @classmethod
    def scaled(cls, scale: float) -> Sizes:
        if not 0 < scale <= 1:
            raise ValueError(f"scale must be in (0, 1], got {scale!r}")
        full = cls()
        counts = {name: max(1, round(value * scale)) for name, value in asdict(full).items()}
        counts["scienceqa_images"] = min(counts["scienceqa_images"], counts["scienceqa"])
        return cls(**counts)


def triviaqa_features() -> Any:
    """Features of ``rc.wikipedia.nocontext`` as the Hub builder declares them."""
    from datasets import Features, List, Value

    text = Value("string")
    return Features(
        {
            "question": text,
            "question_id": text,
            "question_source": text,
            "entity_pages": {
                "doc_source": List(text),
                "filename": List(text),
                "title": List(text),
                "wiki_context": List(text),
            },
            "search_results": {
                "description": List(text),
                "filename": List(text),
                "rank": List(Value("int32")),
                "title": List(text),
                "url": List(text),
                "search_context": List(text),
            },
            "answer": {
                "aliases": List(text),
                "normalized_aliases": List(text),
                "matched_wiki_entity_name": text,
                "normalized_matched_wiki_entity_name": text,
                "normalized_value": text,
                "type": text,
                "value": text,
            },
        }
    )


def scienceqa_features() -> Any:
    """Features of ``derek-thomas/ScienceQA``."""
    from datasets import Features, Image, List, Value

    text = Value("string")
    return Features(
        {
            "image": Image(),
            "question": text,
            "choices": List(text),
            "answer": Value("int8"),
            "hint": text,
            "task": text,
            "grade": text,
            "subject": text,
            "topic": text,
            "category": text,
            "skill": text,
            "lecture": text,
            "solution": text,
        }
    )


# --------------------------------------------------------------------------- pools
# A pool is a list of source rows the generator cycles through: real rows when
# ../shared/data is present, otherwise rows made from this vocabulary.

VOCABULARY = (
    "river mountain king queen city island ocean novel painter composer battle treaty "
    "planet element metal flower bird horse country capital language author film song "
    "opera poet empire bridge castle tower desert forest lake valley harbour railway "
    "festival museum cathedral village county province dynasty revolution invention "
    "engine rocket satellite comet galaxy atom molecule protein virus organ muscle bone "
    "colour number letter alphabet symbol flag coin stamp medal trophy league team player "
    "season winter summer spring autumn morning evening north south east west ancient "
    "modern famous first last largest smallest highest longest oldest youngest national "
    "royal golden silver red blue green black white great little new old holy grand"
).split()
NAME_PARTS = (
    "Adams Baker Clarke Davies Evans Foster Grant Hughes Irving Jones Kelly Lewis Morgan "
    "Nolan Owens Parker Quinn Roberts Scott Turner Walker Young Sarah Maria James Robert "
    "Linda Michael Emily Daniel Laura Kevin Jessica Brian Rachel Victoria Samuel Natalie"
).split()
SIMPLEQA_TOPICS = (
    "Science and technology",
    "Politics",
    "Art",
    "Geography",
    "Sports",
    "Music",
    "TV shows",
    "History",
    "Video games",
    "Other",
)
SIMPLEQA_ANSWER_TYPES = ("Person", "Date", "Number", "Place", "Other")
SCIENCEQA_SUBJECTS = ("natural science", "social science", "language science")
SCIENCEQA_TASKS = ("closed choice", "yes or no", "true-or false")


def _words(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(VOCABULARY) for _ in range(rng.randint(low, high)))


def _sentence(rng: random.Random, low: int, high: int) -> str:
    text = _words(rng, low, high)
    return text[:1].upper() + text[1:] + "."


def _paragraph(rng: random.Random, chars: int) -> str:
    sentences: list[str] = []
    while sum(len(s) + 1 for s in sentences) < chars:
        sentences.append(_sentence(rng, 5, 16))
    return "\n".join(sentences)


def _alias_count(rng: random.Random) -> int:
    # Real rc.wikipedia rows: median 8 aliases, mean 14, long tail to ~180.
    return max(1, min(180, round(rng.lognormvariate(math.log(8), 0.95))))


def synthetic_triviaqa_pool(rng: random.Random, size: int = 600) -> list[dict[str, Any]]:
    from benchmarks.scorers.answer_matching import normalize_answer

    pool = []
    for _ in range(size):
        head = rng.choice(("Which", "What", "Who", "In which", "Where"))
        question = f"{head} {_words(rng, 6, 18)}?"
        base = " ".join(rng.choice(NAME_PARTS + list(VOCABULARY)) for _ in range(rng.randint(1, 3)))
        aliases = [base.title()]
        while len(aliases) < _alias_count(rng):
            aliases.append(f"{base} {_words(rng, 0, 2)}".strip().title())
        normalized = list(dict.fromkeys(normalize_answer(alias) for alias in aliases))
        pool.append(
            _triviaqa_row(question, aliases, normalized, aliases[0], normalize_answer(aliases[0]))
        )
    return pool


def _triviaqa_row(
    question: str, aliases: list[str], normalized: list[str], value: str, normalized_value: str
) -> dict[str, Any]:
    return {
        "question": question,
        "question_id": "",
        "question_source": "",
        "entity_pages": {"doc_source": [], "filename": [], "title": [], "wiki_context": []},
        "search_results": {
            "description": [],
            "filename": [],
            "rank": [],
            "title": [],
            "url": [],
            "search_context": [],
        },
        "answer": {
            "aliases": aliases,
            "normalized_aliases": normalized,
            "matched_wiki_entity_name": "",
            "normalized_matched_wiki_entity_name": "",
            "normalized_value": normalized_value,
            "type": "WikipediaEntity",
            "value": value,
        },
    }


def synthetic_simpleqa_pool(rng: random.Random, size: int = 600) -> list[list[str]]:
    pool = []
    for _ in range(size):
        topic = rng.choice(SIMPLEQA_TOPICS)
        answer_type = rng.choice(SIMPLEQA_ANSWER_TYPES)
        urls = [
            f"https://en.wikipedia.org/wiki/{_words(rng, 1, 4).title().replace(' ', '_')}"
            for _ in range(rng.randint(1, 5))
        ]
        metadata = {"topic": topic, "answer_type": answer_type, "urls": urls}
        problem = f"{rng.choice(('Who', 'What', 'In what year', 'Which'))} {_words(rng, 8, 20)}?"
        answer = (
            str(rng.randint(1800, 2023)) if answer_type == "Date" else _words(rng, 1, 3).title()
        )
        pool.append([repr(metadata), problem, answer])
    return pool


def synthetic_winogrande_pool(rng: random.Random, size: int = 600) -> list[dict[str, str]]:
    pool = []
    for _ in range(size):
        first, second = rng.sample(NAME_PARTS, 2)
        sentence = f"{first} {_words(rng, 3, 8)} than {second} so _ {_words(rng, 2, 7)}."
        pool.append(
            {"sentence": sentence, "option1": first, "option2": second, "answer": rng.choice("12")}
        )
    return pool


def synthetic_scienceqa_pool(rng: random.Random, size: int = 400) -> list[dict[str, Any]]:
    pool = []
    for index in range(size):
        count = rng.choice((2, 2, 2, 3, 4, 4, 5))
        choices = [_words(rng, 1, 3) for _ in range(count)]
        pool.append(
            {
                "has_image": index % 2 == 0,
                "question": f"Which {_words(rng, 4, 12)}?",
                "choices": choices,
                "answer": rng.randrange(count),
                "hint": _sentence(rng, 0, 30) if rng.random() < 0.6 else "",
                "task": rng.choice(SCIENCEQA_TASKS),
                "grade": f"grade{rng.randint(1, 12)}",
                "subject": rng.choice(SCIENCEQA_SUBJECTS),
                "topic": _words(rng, 1, 2).replace(" ", "-"),
                "category": _words(rng, 1, 3).capitalize(),
                "skill": _sentence(rng, 3, 8),
                "lecture": _paragraph(rng, rng.randint(150, 1100)),
                "solution": _paragraph(rng, rng.randint(60, 500)),
            }
        )
    return pool


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@dataclass
class Pools:
    triviaqa: list[dict[str, Any]]
    simpleqa: list[list[str]]
    winogrande: list[dict[str, str]]
    scienceqa: list[dict[str, Any]]
    origin: str


def load_pools(seed_dir: Path | None, rng: random.Random) -> Pools:
    """Real rows from ``seed_dir`` (a copy of ../shared/data), else synthetic ones."""
    if seed_dir is None:
        return Pools(
            triviaqa=synthetic_triviaqa_pool(rng),
            simpleqa=synthetic_simpleqa_pool(rng),
            winogrande=synthetic_winogrande_pool(rng),
            scienceqa=synthetic_scienceqa_pool(rng),
            origin="synthetic vocabulary",
        )
    triviaqa = [
        *_read_jsonl(seed_dir / "triviaqa" / "validation.hf.jsonl"),
        *_read_jsonl(seed_dir / "triviaqa" / "train.hf.jsonl"),
        *_read_jsonl(seed_dir / "triviaqa" / "validation_converted.hf.jsonl"),
    ]
    with (seed_dir / "simpleqa" / "simple_qa_test_set.csv").open(encoding="utf-8", newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        if tuple(header) != SIMPLEQA_COLUMNS:
            raise ValueError(f"{f.name}: unexpected header {header!r}")
        simpleqa = list(reader)
    winogrande = _read_jsonl(seed_dir / "winogrande" / "validation.hf.jsonl")
    scienceqa = []
    for row in _read_jsonl(seed_dir / "scienceqa" / "test_slice.hf.jsonl"):
        row = dict(row)
        row["has_image"] = row.pop("image") is not None
        row.pop("pid", None)
        scienceqa.append(row)
    return Pools(triviaqa, simpleqa, winogrande, scienceqa, origin=f"real rows of {seed_dir}")


def _cycle(pool: Sequence[Any], count: int, rng: random.Random) -> Iterator[Any]:
    """``pool`` in order when it has exactly ``count`` rows, else random draws from it."""
    if len(pool) == count:
        yield from pool
        return
    for _ in range(count):
        yield rng.choice(pool)


# --------------------------------------------------------------------------- rows


def triviaqa_splits(
    pool: list[dict[str, Any]], sizes: Sizes, rng: random.Random
) -> dict[str, list[dict[str, Any]]]:
    counters = dict.fromkeys(TRIVIAQA_SOURCES, 0)
    prefixes = list(TRIVIAQA_SOURCES)
    splits: dict[str, list[dict[str, Any]]] = {}
    counts = {"train": sizes.triviaqa_train, "validation": sizes.triviaqa_validation}
    for split, count in counts.items():
        rows = []
        for source in _cycle(pool, count, rng):
            row = copy.deepcopy(source)
            prefix = rng.choice(prefixes)
            counters[prefix] += rng.randint(1, 7)
            row["question_id"] = f"{prefix}_{counters[prefix]}"
            row["question_source"] = TRIVIAQA_SOURCES[prefix]
            rows.append(row)
        splits[split] = rows
    return splits


def simpleqa_rows(pool: list[list[str]], count: int, rng: random.Random) -> list[list[str]]:
    return [list(row) for row in _cycle(pool, count, rng)]


def winogrande_rows(
    pool: list[dict[str, str]], count: int, rng: random.Random
) -> list[dict[str, str]]:
    return [dict(row) for row in _cycle(pool, count, rng)]


def scienceqa_rows(
    pool: list[dict[str, Any]], count: int, image_count: int, rng: random.Random
) -> list[dict[str, Any]]:
    """Rows without images; the ``image_count`` rows marked ``has_image`` get one later."""
    with_image = [row for row in pool if row["has_image"]] or pool
    without_image = [row for row in pool if not row["has_image"]] or pool
    image_positions = set(rng.sample(range(count), image_count))
    rows = []
    for position in range(count):
        has_image = position in image_positions
        source = dict(rng.choice(with_image if has_image else without_image))
        source["has_image"] = has_image
        rows.append(source)
    return rows


# --------------------------------------------------------------------------- images


def draw_image(seed: int, index: int) -> bytes:
    """PNG bytes of a figure like ScienceQA's: a diagram, a chart or a photo-like scene."""
    from PIL import Image, ImageDraw, ImageFilter, ImageFont

    rng = random.Random(f"{seed}:{index}")
    width = rng.randint(*IMAGE_SIDE_RANGE)
    height = rng.randint(*IMAGE_SIDE_RANGE)
    kind = rng.choices(("photo", "illustration", "diagram", "chart"), weights=(5, 7, 5, 3))[0]
    if kind in ("photo", "illustration"):
        # A smooth colour field; photos add sensor-like noise, illustrations soft-edged shapes.
        coarse = Image.frombytes("RGB", (6, 5), rng.randbytes(6 * 5 * 3))
        image = coarse.resize((width, height), Image.Resampling.BICUBIC)
        draw = ImageDraw.Draw(image)
        for _ in range(rng.randint(2, 8)):
            draw.ellipse(_box(rng, width, height), fill=_colour(rng), outline=_colour(rng))
        if kind == "photo":
            noise = Image.frombytes("RGB", (width, height), rng.randbytes(width * height * 3))
            return _png(Image.blend(image, noise.filter(ImageFilter.BoxBlur(1)), 0.12))
        image = image.filter(ImageFilter.GaussianBlur(1.5))
        draw = ImageDraw.Draw(image)
        font = ImageFont.load_default(size=rng.randint(12, 22))
        for _ in range(rng.randint(1, 6)):
            position = (rng.randint(0, max(0, width - 120)), rng.randint(0, max(0, height - 24)))
            draw.text(position, _words(rng, 1, 3), fill="black", font=font)
        return _png(image)
    image = Image.new("RGB", (width, height), _colour(rng, light=True))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=rng.randint(12, 22))
    if kind == "chart":
        bars = rng.randint(3, 9)
        step = width / (bars + 1)
        for bar in range(bars):
            top = rng.randint(height // 5, height - 30)
            left = int(step * (bar + 0.6))
            draw.rectangle((left, top, int(left + step * 0.7), height - 25), fill=_colour(rng))
            draw.text((left, height - 22), rng.choice(VOCABULARY), fill="black", font=font)
        draw.line((10, height - 25, width - 10, height - 25), fill="black", width=2)
    else:
        for _ in range(rng.randint(3, 14)):
            box = _box(rng, width, height)
            shape = rng.choice(("rectangle", "ellipse", "polygon", "line"))
            if shape == "rectangle":
                draw.rectangle(box, fill=_colour(rng), outline="black", width=rng.randint(1, 3))
            elif shape == "ellipse":
                draw.ellipse(box, fill=_colour(rng), outline="black")
            elif shape == "polygon":
                points = [(rng.randint(0, width), rng.randint(0, height)) for _ in range(3)]
                draw.polygon(points, fill=_colour(rng), outline="black")
            else:
                draw.line(box, fill=_colour(rng), width=rng.randint(1, 5))
    for _ in range(rng.randint(1, 6)):
        position = (rng.randint(0, max(0, width - 120)), rng.randint(0, max(0, height - 24)))
        draw.text(position, _words(rng, 1, 3), fill="black", font=font)
    return _png(image)


def _box(rng: random.Random, width: int, height: int) -> tuple[int, int, int, int]:
    x0, x1 = sorted((rng.randint(0, width - 1), rng.randint(0, width - 1)))
    y0, y1 = sorted((rng.randint(0, height - 1), rng.randint(0, height - 1)))
    return x0, y0, x1, y1


def _colour(rng: random.Random, light: bool = False) -> tuple[int, int, int]:
    low = 200 if light else 0
    return (rng.randint(low, 255), rng.randint(low, 255), rng.randint(low, 255))


def _png(image: Any) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def _draw_image_args(args: tuple[int, int]) -> bytes:
    return draw_image(*args)


def draw_images(seed: int, count: int, processes: int | None = None) -> list[bytes]:
    """``count`` PNGs; image ``i`` depends only on ``(seed, i)``, so workers do not matter."""
    jobs = [(seed, index) for index in range(count)]
    processes = processes or min(2, os.cpu_count() or 1)
    if processes == 1 or count < 64:
        return [draw_image(*job) for job in jobs]
    with multiprocessing.get_context("spawn").Pool(processes) as workers:
        return list(workers.imap(_draw_image_args, jobs, chunksize=16))


# --------------------------------------------------------------------------- writers


def write_jsonl(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row) + "\n")


def write_simpleqa_csv(path: Path, rows: Sequence[list[str]]) -> None:
    # The upstream file: header line, minimal quoting, "\n" line ends.
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(SIMPLEQA_COLUMNS)
        writer.writerows(rows)


def write_parquet(path: Path, rows: list[dict[str, Any]], features: Any) -> None:
    import datasets

    datasets.disable_progress_bars()
    datasets.Dataset.from_list(rows, features=features).to_parquet(str(path))


# --------------------------------------------------------------------------- checks


def count_rows(path: Path) -> tuple[int, int | None]:
    """Rows in a generated file, and rows carrying an image (parquet with ``image`` only)."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        parquet = pq.ParquetFile(path)
        rows = parquet.metadata.num_rows
        if "image" not in parquet.schema_arrow.names:
            return rows, None
        return rows, rows - _null_images(parquet)
    if path.suffix == ".csv":
        with path.open(encoding="utf-8", newline="") as handle:
            return sum(1 for _ in csv.reader(handle)) - 1, None
    with path.open("rb") as handle:
        return sum(1 for line in handle if line.strip()), None


def _null_images(parquet: Any) -> int:
    """Rows without an image, from the column statistics when the file has them."""
    names = [parquet.schema.column(i).path for i in range(len(parquet.schema))]
    leaf = names.index("image.bytes")
    nulls = 0
    for group in range(parquet.metadata.num_row_groups):
        statistics = parquet.metadata.row_group(group).column(leaf).statistics
        if statistics is None or not statistics.has_null_count:
            column = parquet.read(columns=["image"]).column("image")
            return int(column.null_count)
        nulls += statistics.null_count
    return nulls


def expected_counts(sizes: Sizes) -> dict[str, tuple[int, int | None]]:
    return {
        f"{TRIVIAQA_TRAIN}.parquet": (sizes.triviaqa_train, None),
        f"{TRIVIAQA_TRAIN}.jsonl": (sizes.triviaqa_train, None),
        f"{TRIVIAQA_VALIDATION}.parquet": (sizes.triviaqa_validation, None),
        f"{TRIVIAQA_VALIDATION}.jsonl": (sizes.triviaqa_validation, None),
        SIMPLEQA_CSV: (sizes.simpleqa, None),
        WINOGRANDE_JSONL: (sizes.winogrande, None),
        SCIENCEQA_PARQUET: (sizes.scienceqa, sizes.scienceqa_images),
    }


def outputs_complete(out_dir: Path, sizes: Sizes) -> bool:
    manifest_path = out_dir / "manifest.json"
    if not manifest_path.is_file():
        return False
    manifest = json.loads(manifest_path.read_text())
    if manifest.get("generator_version") != GENERATOR_VERSION:
        return False
    for name, expected in expected_counts(sizes).items():
        path = out_dir / name
        recorded = manifest.get("files", {}).get(name, {})
        if not path.is_file() or recorded.get("bytes") != path.stat().st_size:
            return False
        if count_rows(path) != expected:
            return False
    return True


# --------------------------------------------------------------------------- main


def generate(
    out_dir: Path = DATA_DIR,
    *,
    scale: float = 1.0,
    seed: int = SEED,
    seed_dir: Path | None = None,
    force: bool = False,
    log: Callable[[str], None] = lambda message: None,
) -> dict[str, Any]:
    """Write every dataset under ``out_dir``; return the manifest."""
    sizes = Sizes.scaled(scale)
    if not force and outputs_complete(out_dir, sizes):
        log(f"datasets in {out_dir} are complete; skipping generation")
        return json.loads((out_dir / "manifest.json").read_text())
    started = time.perf_counter()
    for folder in ("triviaqa", "simpleqa", "winogrande", "scienceqa"):
        (out_dir / folder).mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    pools = load_pools(seed_dir, rng)
    log(f"pools: {pools.origin}")

    for split, rows in triviaqa_splits(pools.triviaqa, sizes, rng).items():
        stem = TRIVIAQA_TRAIN if split == "train" else TRIVIAQA_VALIDATION
        write_parquet(out_dir / f"{stem}.parquet", rows, triviaqa_features())
        write_jsonl(out_dir / f"{stem}.jsonl", rows)
        log(f"triviaqa {split}: {len(rows)} rows")

    write_simpleqa_csv(out_dir / SIMPLEQA_CSV, simpleqa_rows(pools.simpleqa, sizes.simpleqa, rng))
    write_jsonl(
        out_dir / WINOGRANDE_JSONL, winogrande_rows(pools.winogrande, sizes.winogrande, rng)
    )

    science_rows = scienceqa_rows(pools.scienceqa, sizes.scienceqa, sizes.scienceqa_images, rng)
    log(f"scienceqa: drawing {sizes.scienceqa_images} images")
    images = iter(draw_images(seed, sizes.scienceqa_images))
    for row in science_rows:
        has_image = row.pop("has_image")
        row["image"] = {"bytes": next(images), "path": None} if has_image else None
    columns = list(scienceqa_features())
    science_rows = [{name: row[name] for name in columns} for row in science_rows]
    write_parquet(out_dir / SCIENCEQA_PARQUET, science_rows, scienceqa_features())

    files = {}
    for name, expected in expected_counts(sizes).items():
        path = out_dir / name
        found = count_rows(path)
        if found != expected:
            raise RuntimeError(f"{path}: wrote {found} (rows, image rows), expected {expected}")
        files[name] = {
            "rows": found[0],
            "image_rows": found[1],
            "bytes": path.stat().st_size,
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        }
    manifest = {
        "generator_version": GENERATOR_VERSION,
        "seed": seed,
        "scale": scale,
        "text_from": pools.origin,
        "seconds": round(time.perf_counter() - started, 1),
        "files": files,
    }
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    log(f"generated in {manifest['seconds']} s")
    return manifest


def default_seed_dir() -> Path | None:
    """``../shared/data`` when this checkout sits next to it, else None (synthetic text)."""
    marker = SHARED_DATA / "triviaqa" / "validation_converted.hf.jsonl"
    return SHARED_DATA if marker.is_file() else None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DATA_DIR)
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of upstream sizes")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument(
        "--seed-dir",
        type=Path,
        default=default_seed_dir(),
        help="folder of real rows (default: ../shared/data when present)",
    )
    parser.add_argument("--synthetic", action="store_true", help="ignore real rows")
    parser.add_argument("--force", action="store_true", help="rewrite existing outputs")
    args = parser.parse_args(argv)
    generate(
        args.out,
        scale=args.scale,
        seed=args.seed,
        seed_dir=None if args.synthetic else args.seed_dir,
        force=args.force,
        log=lambda message: print(message, file=sys.stderr),
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
