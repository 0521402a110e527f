"""SimpleQA's pins for the generic conformance tests (read by tests/conformance_pins.py).

FIRST_SAMPLE: the first bundled sample's id and how its prompt starts (two few-shot
    examples where the task draws them): tests/test_determinism.py.
RANDOM_RIGHT: (questions right, questions) of benchmarks/random, seed 0, on the bundled
    sample: tests/test_offline_models.py.
EXPLANATION: the pattern the scorer's explanation of one bundled question answered (and
    graded) by benchmarks/oracle matches in full: tests/test_log_viewer.py.
BAD_INPUTS_COVERED_ELSEWHERE: a kind of malformed input of tests/test_bad_inputs.py's table
    -> the test of this folder that proves it (``file::test``).
BAD_INPUTS_NOT_APPLICABLE: a kind of that table -> why it cannot occur here.
"""

FIRST_SAMPLE = ("simpleqa_0", "Who received the IEEE Frank Rosenblatt Award in 2010?")

RANDOM_RIGHT = (0, 30)

EXPLANATION = "judge replied 'A': A = CORRECT"

BAD_INPUTS_COVERED_ELSEWHERE = {
    "missing column": "test_simpleqa.py::test_bad_files_are_named_with_row_and_field",
    "renamed column": "test_simpleqa.py::test_bad_files_are_named_with_row_and_field",
    "wrong type": "test_simpleqa.py::test_bad_files_are_named_with_row_and_field",
    "empty alias list": (
        "test_simpleqa.py::test_bad_files_are_named_with_row_and_field"  # an empty 'answer'
    ),
    "empty file": "test_simpleqa.py::test_bad_files_are_named_with_row_and_field",
    "truncated file": (
        "test_simpleqa.py::test_bad_files_are_named_with_row_and_field"  # broken.jsonl
    ),
    "non-UTF-8 bytes": "test_simpleqa.py::test_non_utf8_bytes_are_reported",
    "1 MB field": "test_simpleqa.py::test_a_one_megabyte_field_loads",
    "duplicate ids": "test_simpleqa.py::test_bad_files_are_named_with_row_and_field",
}

BAD_INPUTS_NOT_APPLICABLE = {
    "empty choices": "open question answering: no choices",
    "answer index out of range": "the answer is a string, not an index",
    "corrupt image bytes": "text only",
}
