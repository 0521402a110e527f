"""Test set-up: no test touches the network."""

import os
import tempfile

# Set before `datasets` / `huggingface_hub` are imported anywhere.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ.setdefault("INSPECT_DISPLAY", "none")
# ScienceQA's image cache (and any other download cache) in a folder of this
# run, never the user's; child processes inherit it.
os.environ.setdefault("INSPECT_BENCHMARKS_CACHE", tempfile.mkdtemp(prefix="benchmarks-cache-"))
