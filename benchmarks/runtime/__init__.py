"""The support every other role builds on, importing none of them: checked task parameters,
the errors users see, registry names, run warnings, lazily imported libraries, the
commands' argument types, and Inspect's internals (in one module)."""
