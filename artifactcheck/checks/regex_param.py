"""A check parameter that must be a regular expression: refused when the rubric loads
(a ``ValueError`` pydantic reports with the step), not when the check first runs."""

from __future__ import annotations

import re


def require_regex(value: str | None, name: str) -> str | None:
    """``value`` unchanged when it compiles (or is None); else why not, naming the parameter.

    >>> require_regex("a+", "gap")
    'a+'
    >>> require_regex("(", "gap")
    Traceback (most recent call last):
    ValueError: gap '(' is not a regular expression: missing ), unterminated subpattern at position 0
    """
    if value is not None:
        try:
            re.compile(value)
        except re.error as exc:
            raise ValueError(f"{name} {value!r} is not a regular expression: {exc}") from None
    return value
