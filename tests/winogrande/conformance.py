"""WinoGrande's pins for the generic conformance tests (tests/conformance_pins.py
says what each pins)."""

FIRST_SAMPLE = (
    "validation_0",
    "Here are some examples of how to answer similar questions:\n\nThe computer of Vict",
)

RANDOM_RIGHT = (22, 40)

EXPLANATION = r"read ([AB]) \(rule answer_marker\); target \1"

BAD_INPUTS_COVERED_ELSEWHERE = {
    "missing column": "test_winogrande.py::test_missing_and_renamed_columns",
    "renamed column": "test_winogrande.py::test_missing_and_renamed_columns",
    "wrong type": "test_winogrande.py::test_integer_answers_are_refused",
    "empty choices": "test_winogrande.py::test_bad_row_names_file_row_and_field",
    "answer index out of range": "test_winogrande.py::test_bad_row_names_file_row_and_field",
    "empty file": "test_winogrande.py::test_empty_file",
    "non-UTF-8 bytes": "test_winogrande.py::test_undecodable_bytes_name_file_and_line",
    "1 MB field": "test_winogrande.py::test_a_one_megabyte_sentence_is_kept_whole",
}

BAD_INPUTS_NOT_APPLICABLE = {
    "empty alias list": "two options and a '1'/'2' answer, no aliases",
    "corrupt image bytes": "text only",
}
