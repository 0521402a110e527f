"""ScienceQA's pins for the generic conformance tests (read by tests/conformance_pins.py).

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

FIRST_SAMPLE = ("test_0", "Question: Which figure of speech is used in this text?")

RANDOM_RIGHT = (10, 20)

EXPLANATION = r"read ([A-E]) \(rule \w+\); target \1"

BAD_INPUTS_COVERED_ELSEWHERE = {
    "missing column": "test_scienceqa.py::test_missing_column",
    "wrong type": "test_scienceqa.py::test_answer_as_string_is_a_type_error",
    "empty choices": "test_scienceqa.py::test_bad_rows_name_row_and_field",
    "answer index out of range": "test_scienceqa.py::test_bad_rows_name_row_and_field",
    "corrupt image bytes": "test_scienceqa.py::test_corrupt_image_is_an_error_naming_the_row",
}

BAD_INPUTS_NOT_APPLICABLE = {
    "empty alias list": "answers are choice indices, no aliases",
}
