"""The sample metadata keys a task's data writes for its solvers to read."""

# The demonstrations drawn for the question (their row numbers in the pool).
FEWSHOT_KEY = "fewshot"
# One ``[context, continuation]`` per option, for log-likelihood scoring.
REQUESTS_KEY = "loglikelihood_requests"
