"""Mutation testing (make mutate): python -m tools.mutate."""
