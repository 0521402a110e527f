"""TriviaQA's pins for the generic conformance tests (read by tests/conformance_pins.py).

FIRST_SAMPLE: the first bundled sample's id and how its prompt starts (two few-shot
    examples where the task draws them): tests/test_determinism.py.
RANDOM_RIGHT: (questions right, questions) of benchmarks/random, seed 0, on the bundled
    sample: tests/test_offline_models.py.
(No EXPLANATION: tests/test_log_viewer.py checks TriviaQA's in detail.)
BAD_INPUTS_COVERED_ELSEWHERE: a kind of malformed input of tests/test_bad_inputs.py's table
    -> the test of this folder that proves it (``file::test``).
BAD_INPUTS_NOT_APPLICABLE: a kind of that table -> why it cannot occur here.
"""

FIRST_SAMPLE = ("tc_33", "Question: What is the star sign of the date of the Battle of Waterloo?")

RANDOM_RIGHT = (0, 30)

BAD_INPUTS_COVERED_ELSEWHERE = {
    "missing column": "test_triviaqa.py::test_a_missing_column_names_the_file",
    "empty alias list": "test_triviaqa.py::test_a_bad_row_names_file_row_and_field",
}

BAD_INPUTS_NOT_APPLICABLE = {
    "empty choices": "open question answering: no choices",
    "answer index out of range": "answers are alias lists, not indices",
    "corrupt image bytes": "text only",
}
