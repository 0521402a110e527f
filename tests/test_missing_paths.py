"""A local path that does not exist is named as missing, whichever parameter carries it,
before any Hub request; only a Hub id (``name`` or ``owner/name``) goes to the Hub."""

from __future__ import annotations

import pytest

from benchmarks.catalog import specs
from benchmarks.data.source import refuse_a_missing_local_path
from benchmarks.runtime.errors import TaskParameterError

HUB_BENCHMARKS = [name for name, spec in specs().items() if spec.dataset is not None]
MISSING = ["/nonexistent/sqa", "./missing.jsonl", "~/missing-folder/rows", "data/x/y.parquet"]


@pytest.mark.parametrize("path", MISSING)
@pytest.mark.parametrize("name", HUB_BENCHMARKS)
def test_a_missing_local_dataset_path_is_named_missing(name: str, path: str) -> None:
    with pytest.raises(TaskParameterError) as raised:
        specs()[name].task(dataset_path=path)
    assert str(raised.value) == (
        f"{name}: dataset_path {path}: no such file or folder (a Hub id is owner/name, "
        "without a leading / or .)."
    )


@pytest.mark.parametrize("hub_id", ["allenai/winogrande", "winogrande", "someone/ScienceQA-v2"])
def test_a_hub_id_is_left_to_the_hub(hub_id: str) -> None:
    refuse_a_missing_local_path("winogrande", hub_id)  # no error: the Hub is asked


def test_an_existing_local_folder_is_taken(tmp_path: object) -> None:
    refuse_a_missing_local_path("winogrande", str(tmp_path))
