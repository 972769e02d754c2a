"""Checks: pure functions over a Document that return a CheckResult."""
