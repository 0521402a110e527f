"""Performance harness: full-size synthetic datasets and benchmark timings (README.md)."""
