"""``sentences_split_after``: in every sentence, the first N words are set apart from the
rest — the "align the first three words of each sentence" tasks (OSWorld's
``evaluate_alignment``), read from the paragraph text, not from the layout.

A sentence is a piece of a paragraph's text between two ``separator``s (``.``); pieces
of fewer than ``words`` words are not judged. Two rules:

- ``gap`` unset (OSWorld's rule, kept exactly): with the first N words joined by single
  spaces as one part and the remaining words joined by single spaces as the other, both
  parts occur in the sentence and the first part's first occurrence starts before the
  second's. An ordinary sentence passes (the split may be a plain space); a sentence whose
  words inside either part are separated by anything but one space fails, and so does a
  sentence of exactly N words (an empty rest "occurs" at 0, never after the first part).
- ``gap`` set (the judgement the task means): the whitespace between word N and word N+1
  must match ``gap`` as a whole (``"\\t+"``, ``" {2,}|\\t+"``); a sentence of exactly N
  words has no such whitespace and fails.

A document with no sentence to judge passes, as OSWorld's does; the evidence says so. The
default target is the body's paragraphs (python-docx's ``document.paragraphs``); a tree
that has none there (a PDF's paragraphs are under its pages) has every paragraph judged.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ...model import Document, Node
from ..regex_param import require_regex
from ..registry import Resources, register_check
from ..result import CheckResult
from ..target import Target, TargetSpec, cap_rows, node_ref, select_targets
from ._common import excerpt

_WHITESPACE_RUNS = re.compile(r"(\s+)")


def _body_paragraphs() -> Target:
    return Target(selector="document > paragraph")


class SentencesSplitParams(BaseModel):
    """Parameters of ``sentences_split_after``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    target: TargetSpec = Field(
        default_factory=_body_paragraphs,
        description="the paragraphs whose sentences are judged (default: the body's of a .docx/.odt/EPUB/Google "
        "Doc, as python-docx's document.paragraphs; in a tree without body paragraphs, a PDF's, every paragraph)",
    )
    words: int = Field(default=3, ge=1, description="how many leading words are split off")
    separator: str = Field(default=".", min_length=1, description="what ends a sentence (split as plain text)")
    gap: str | None = Field(
        default=None,
        description="regular expression the whitespace after word N must match as a whole (e.g. '\\t+'); "
        "none: OSWorld's evaluate_alignment rule, which any spacing passes",
    )

    @field_validator("gap")
    @classmethod
    def _compiles(cls, value: str | None) -> str | None:
        return require_regex(value, "gap")


def osworld_split_ok(sentence: str, n: int) -> bool:
    """OSWorld's ``evaluate_alignment`` test of one sentence of at least ``n`` words.

    >>> osworld_split_ok(" The quick brown fox jumps", 3), osworld_split_ok("The quick brown\\tfox", 3)
    (True, True)
    >>> osworld_split_ok("The  quick brown fox", 3), osworld_split_ok(" Three words only", 3)
    (False, False)
    """
    words = sentence.strip().split()
    first, rest = " ".join(words[:n]), " ".join(words[n:])
    return first in sentence and rest in sentence and sentence.find(first) < sentence.find(rest)


def gap_after(sentence: str, n: int) -> str | None:
    """The whitespace between word ``n`` and word ``n + 1`` (None: no word ``n + 1``).

    >>> gap_after("Step one now\\tthen the rest", 3)
    '\\t'
    """
    pieces = _WHITESPACE_RUNS.split(sentence.strip())  # word, space, word, space, ...
    return pieces[2 * n - 1] if len(pieces) > 2 * n else None


def _judge(sentence: str, p: SentencesSplitParams, gap: re.Pattern[str] | None) -> tuple[bool, str]:
    if gap is None:
        ok = osworld_split_ok(sentence, p.words)
        return ok, "" if ok else "the first words and the rest are not both single-spaced runs, in order"
    found = gap_after(sentence, p.words)
    if found is None:
        return False, f"nothing after word {p.words}"
    ok = gap.fullmatch(found) is not None
    return ok, "" if ok else f"the gap after word {p.words} is {found!r}"


@register_check(
    "sentences_split_after",
    mechanism="exact",
    params=SentencesSplitParams,
    example={"words": 3, "gap": "\\t+"},
)
def sentences_split_after(doc: Document, p: SentencesSplitParams, resources: Resources) -> CheckResult:
    """In every sentence of the target paragraphs, the first N words are split from the rest (by the gap pattern; without one, OSWorld's evaluate_alignment rule).

    Sentences are the pieces between separators; pieces of fewer than N words are not
    judged. The score is the share of judged sentences that pass; none judged passes
    (as OSWorld's), with the evidence saying none were.
    """
    gap = re.compile(p.gap) if p.gap is not None else None
    rows: list[dict[str, Any]] = []
    nodes: list[Node] = select_targets(doc, p.target)
    if not nodes and "target" not in p.model_fields_set:
        # A PDF's paragraphs sit under its pages, not under the document: judged, not a
        # vacuous pass for want of body paragraphs.
        nodes = select_targets(doc, Target(selector="paragraph"))
    for node in nodes:
        for i, sentence in enumerate(node.text.split(p.separator), 1):
            if len(sentence.strip().split()) < p.words:
                continue
            ok, why = _judge(sentence, p, gap)
            row: dict[str, Any] = {**node_ref(node), "sentence": i, "compared": excerpt(sentence.strip()), "ok": ok}
            if why:
                row["why"] = why
            rows.append(row)
    good = sum(1 for r in rows if r["ok"])
    rule = f"gap /{p.gap}/ after word {p.words}" if p.gap is not None else f"OSWorld's split after word {p.words}"
    if not rows:
        explanation = f"no sentence of {p.words}+ words in {len(nodes)} paragraph(s): nothing to split ({rule})"
    else:
        explanation = f"{good}/{len(rows)} sentence(s) of {len(nodes)} paragraph(s) pass {rule}"
        bad = next((r for r in rows if not r["ok"]), None)
        if bad is not None:
            explanation += f"; e.g. {bad['id']} sentence {bad['sentence']}: {bad['compared']!r} ({bad['why']})"
    return CheckResult(
        check="sentences_split_after",
        status="pass" if good == len(rows) else "fail",
        mechanism="exact",
        score=good / len(rows) if rows else 1.0,
        explanation=explanation,
        evidence={"sentences": len(rows), "paragraphs": len(nodes), "rule": rule, "nodes": cap_rows(rows)},
    )
