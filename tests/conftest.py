"""Test set-up: no test touches the network."""

import os

# Set before `datasets` / `huggingface_hub` are imported anywhere.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ.setdefault("INSPECT_DISPLAY", "none")
