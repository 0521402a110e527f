"""The solvers that build prompts: few-shot, multiple-choice, and each benchmark's own
prompt parts (``solvers/<benchmark>.py``)."""
