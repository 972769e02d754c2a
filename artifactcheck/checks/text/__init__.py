"""Text checks: matching (equals, regex, similar, contains, excludes), numbers and dates,
links and formulas. Shared per-node verdicts live in ``_common.py``."""
