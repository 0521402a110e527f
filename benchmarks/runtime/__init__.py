"""The support every other role builds on, importing none of them: checked task parameters,
the errors users see, registry names, what a run records of itself (its switches, its
settings line), the commands' argument types, and Inspect's internals (in one module)."""
