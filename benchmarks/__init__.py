"""Reference-exact LLM benchmarks for Inspect AI."""
