"""What every task uses while it is built: checked task parameters, the errors users see,
registry names, run warnings, lazily imported libraries."""
