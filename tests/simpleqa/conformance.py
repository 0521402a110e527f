"""SimpleQA's pins for the generic conformance tests (tests/conformance_pins.py
says what each pins)."""

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
