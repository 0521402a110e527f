"""WinoGrande's pins for the generic conformance tests (read by tests/conformance_pins.py).

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
