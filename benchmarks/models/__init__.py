"""Models this package registers or talks to: the offline oracle and random models, and the
completions-endpoint helpers for log-likelihood scoring."""
