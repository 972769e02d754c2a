"""``compare_records``: a document whose non-empty body paragraphs are records (one line
each, e.g. ``08:15:00, T102, S4, 2``) against a gold document, by a key each line holds —
for the "remove duplicate records" tasks (OSWorld's ``compare_unique_train_records``).

A line is a printed line of a body paragraph (its text up to a line break: a paragraph
of four records separated by ``w:br`` prints four lines), with leading and trailing
whitespace removed; blank lines are not lines. A line's key is group 1 of ``key_pattern`` when the pattern
matches the whole line (the whole match when the pattern has no group), stripped; a line
the pattern does not match has no key (it still counts as a line). Lines and keys are
compared exactly (case and inner spacing count), as the evaluators they port do.

Each requirement is an aspect of the comparison, on by default except ``lines_from``:

- ``unique``: no key appears on two lines of the artifact;
- ``keys``: the artifact's set of keys equals the gold's;
- ``line_count``: the artifact has as many lines as the gold;
- ``lines_from`` (a second reference, e.g. the task's initial file): every artifact line
  is one of its lines — the agent deleted lines, it did not edit or invent them.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from pydantic import Field, field_validator

from ...errors import RubricError
from ...model import Document, Node
from ..regex_param import require_regex
from ..registry import Resources, register_check
from ..result import CheckResult
from .diff import CompareParams, Comparison, comparison_result
from .document import DOCUMENT_FORMATS, body_paragraphs
from .reference import load_reference_document
from .text_options import snippet


class CompareRecordsParams(CompareParams):
    """Parameters of ``compare_records``."""

    key_pattern: str | None = Field(
        default=None,
        description="regular expression a line must match as a whole to have a key: group 1 (or the whole match "
        "without groups), stripped, is the key; OSWorld's 'second of exactly four comma fields' is "
        "'[^,]*,([^,]*),[^,]*,[^,]*'; none: the whole line is its key",
    )
    unique_keys: bool = Field(default=True, description="no key on two artifact lines")
    same_keys: bool = Field(default=True, description="the artifact's set of keys equals the reference's")
    same_line_count: bool = Field(default=True, description="as many lines as the reference")
    lines_from: str | None = Field(
        default=None,
        description="a second document (the task's initial file): every artifact line must be one of its lines; "
        "a path like reference",
    )

    @field_validator("key_pattern")
    @classmethod
    def _compiles(cls, value: str | None) -> str | None:
        return require_regex(value, "key_pattern")


_LINE_BREAKS = re.compile(r"[\n\v\u2028]")
"""What ends a printed line inside a paragraph: a line break (w:br, Docs' vertical tab)."""


class _Records:
    """One document's lines (text, paragraph node) and their keys (None: no key)."""

    def __init__(self, doc: Document, pattern: re.Pattern[str] | None) -> None:
        self.lines: list[tuple[str, Node]] = []
        self.keys: list[str | None] = []
        for node in body_paragraphs(doc):
            # A paragraph broken by line breaks (python-docx writes "\n" as w:br) prints
            # one record per line: each printed line is a line.
            for piece in _LINE_BREAKS.split(node.text):
                line = piece.strip()
                if not line:
                    continue
                self.lines.append((line, node))
                self.keys.append(_key(line, pattern))

    def key_set(self) -> set[str]:
        return {k for k in self.keys if k is not None}


def _key(line: str, pattern: re.Pattern[str] | None) -> str | None:
    if pattern is None:
        return line
    m = pattern.fullmatch(line)
    if m is None:
        return None
    return (m.group(1) if pattern.groups else m.group(0)).strip()


def _where(number: int, line: str) -> str:
    return f'line {number} ("{snippet(line)}")'


def _document(name: str, resources: Resources, what: str) -> Document:
    doc = load_reference_document(name, resources, render=False)
    if doc.artifact.format not in DOCUMENT_FORMATS:
        raise RubricError(f"compare_records: {what} {name!r} is a {doc.artifact.format} file, not a document")
    return doc


@register_check(
    "compare_records",
    mechanism="exact",
    params=CompareRecordsParams,
    example={"reference": "gold.docx", "key_pattern": "[^,]*,([^,]*),[^,]*,[^,]*", "lines_from": "initial.docx"},
)
def compare_records(doc: Document, p: CompareRecordsParams, resources: Resources) -> CheckResult:
    """The document's lines are records like the gold's: unique keys, the gold's set of keys, as many lines, and (with lines_from) every line taken from an initial file.

    A line is a non-empty printed line of a body paragraph, stripped; its key is group 1 of ``key_pattern``
    matched against the whole line (no match: no key). Lines and keys are compared exactly.
    Every failed requirement is listed with the lines at fault; the score is 0/1, or with
    ``partial_credit`` the share of compared items that agree. A reference that cannot be
    read is an error, never a fail.
    """
    pattern = re.compile(p.key_pattern) if p.key_pattern is not None else None
    gold = _Records(_document(p.reference, resources, "the reference"), pattern)
    art = _Records(doc, pattern)
    cmp = Comparison()
    evidence: dict[str, Any] = {
        "lines": {"reference": len(gold.lines), "artifact": len(art.lines)},
        "keys": {"reference": len(gold.key_set()), "artifact": len(art.key_set())},
        "artifact_lines_without_key": sum(1 for k in art.keys if k is None),
    }
    if p.lines_from is not None:
        initial = _Records(_document(p.lines_from, resources, "lines_from"), None)
        allowed = {line for line, _ in initial.lines}
        evidence["lines"]["lines_from"] = len(initial.lines)
        for i, (line, _) in enumerate(art.lines, 1):
            cmp.check("lines_from", _where(i, line), f"a line of {p.lines_from}", line, equal=line in allowed,
                      note=f"not a line of {p.lines_from}")
    if p.unique_keys:
        counts = Counter(k for k in art.keys if k is not None)
        seen: set[str] = set()
        for i, ((line, _), key) in enumerate(zip(art.lines, art.keys, strict=True), 1):
            if key is None:
                continue
            repeat = key in seen
            seen.add(key)
            cmp.check("unique", _where(i, line), key, key, equal=not repeat,
                      note=f"key {key!r} is on {counts[key]} lines" if repeat else "")
    if p.same_keys:
        ours, theirs = art.key_set(), gold.key_set()
        for key in sorted(theirs):
            if key in ours:
                cmp.agree("keys")
            else:
                cmp.missing("keys", f"key {key!r}", key)
        for key in sorted(ours - theirs):
            line = next(line for (line, _), k in zip(art.lines, art.keys, strict=True) if k == key)
            cmp.extra("keys", f"key {key!r} ({snippet(line)})", key)
    if p.same_line_count:
        cmp.check("line_count", "the document", len(gold.lines), len(art.lines))
    return comparison_result(
        "compare_records", cmp, p, mechanism="exact", reference_label=p.reference, evidence=evidence,
    )
