"""The SimpleQA judge prompts, as data (their sources and licences: scorers/judge_prompt.py)."""
