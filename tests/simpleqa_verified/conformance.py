"""SimpleQA Verified's pins for the generic conformance tests (tests/conformance_pins.py
says what each pins)."""

FIRST_SAMPLE = (0, "Who received the IEEE Frank Rosenblatt Award in 2010?")

RANDOM_RIGHT = (0, 20)

EXPLANATION = "judge replied 'A': A = CORRECT"

BAD_INPUTS_COVERED_ELSEWHERE = {
    "missing column": "test_simpleqa_verified.py::test_a_missing_column_is_named",
    "wrong type": "test_simpleqa_verified.py::test_bad_rows_are_named",
    "empty alias list": (
        "test_simpleqa_verified.py::test_bad_rows_are_named"  # an empty 'answer'
    ),
    "duplicate ids": "test_simpleqa_verified.py::test_a_repeated_original_index_names_both_rows",
}

BAD_INPUTS_NOT_APPLICABLE = {
    "empty choices": "open question answering: no choices",
    "answer index out of range": "the answer is a string, not an index",
    "corrupt image bytes": "text only",
}
