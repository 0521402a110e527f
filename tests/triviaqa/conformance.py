"""TriviaQA's pins for the generic conformance tests (tests/conformance_pins.py
says what each pins)."""

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
