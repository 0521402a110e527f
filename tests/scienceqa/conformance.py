"""ScienceQA's pins for the generic conformance tests (tests/conformance_pins.py
says what each pins)."""

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
