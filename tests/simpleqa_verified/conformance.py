"""SimpleQA Verified's pins for the generic conformance tests (read by tests/conformance_pins.py).

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
