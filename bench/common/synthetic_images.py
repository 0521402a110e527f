"""Figures like ScienceQA's, drawn with Pillow: diagrams, charts and photo-like scenes.

Image ``i`` depends only on ``(seed, i)``, whatever the number of worker processes.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import random
from typing import Any

from bench.common.synthetic_text import VOCABULARY, words

IMAGE_SIDE_RANGE = (200, 700)


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
            draw.text(position, words(rng, 1, 3), fill="black", font=font)
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
        draw.text(position, words(rng, 1, 3), fill="black", font=font)
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
