"""Scorers and metrics: answer matching, option letters, log-likelihood, the SimpleQA judge
and its prompts, and each benchmark's own metrics (``scorers/<benchmark>.py``)."""
