"""Character formatting compared on aligned text: the reference paragraph's runs against
whatever the artifact's paragraph shows for the same characters.

Runs are not compared one to one: an agent that retypes a sentence splits it into other
runs with the same look. Each paragraph's characters are given the effective style of
their run, the two texts are aligned character by character (difflib), and for each
reference run and each property the aligned, non-space characters are compared. One
difference per run and property, quoting the characters that differ. Characters the
artifact does not have (edited text) are the text comparison's business, not this one's.
"""

from __future__ import annotations

import difflib
from typing import Any, Literal

from ...model import Node, Style
from .diff import Comparison
from .text_options import snippet

RunProperty = Literal["font", "size", "bold", "italic", "underline", "strike", "color", "highlight", "baseline"]
RUN_PROPERTIES: tuple[RunProperty, ...] = RunProperty.__args__  # type: ignore[attr-defined]
DEFAULT_RUN_PROPERTIES: tuple[RunProperty, ...] = ("font", "size", "bold", "italic", "underline", "color", "highlight")

SIZE_TOLERANCE_PT = 0.05
"""Font sizes closer than this are equal: half-points and hundredths of a point (the two
units files store sizes in) round to the same size."""


def run_value(style: Style | None, prop: RunProperty) -> Any:
    """The property as compared: booleans unset = false, fonts case-folded, sizes in pt,
    colours ``#rrggbb`` (unset = automatic, which draws black), highlight/baseline None
    when there is none."""
    value = getattr(style, prop, None) if style is not None else None
    if prop in ("bold", "italic", "underline", "strike"):
        return bool(value)
    if prop == "font":
        return value.casefold() if isinstance(value, str) else None
    if prop == "color":
        return value or "#000000"
    if prop == "highlight":
        return None if value in (None, "none") else value
    return value


def _equal(prop: RunProperty, a: Any, b: Any, color_tolerance: float) -> bool:
    if prop == "size" and isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) < SIZE_TOLERANCE_PT
    if a == b:
        return True
    if prop in ("color", "highlight") and isinstance(a, str) and isinstance(b, str) and color_tolerance > 0:
        from ..color import delta_e  # colour science only when two colours differ

        try:
            return delta_e(a, b) <= color_tolerance
        except ValueError:  # a highlight name no palette spells ("darkYellow"): names differ
            return False
    return False


def _chars(paragraph: Node) -> tuple[str, list[int], list[Node]]:
    """The paragraph's run text, each character's run index, and the runs."""
    runs = [n for n in paragraph.descendants("run") if n.text]
    text, owner = [], []
    for k, run in enumerate(runs):
        text.append(run.text)
        owner.extend([k] * len(run.text))
    return "".join(text), owner, runs


def compare_run_formatting(
    comparison: Comparison,
    reference: Node,
    artifact: Node,
    properties: tuple[RunProperty, ...] | list[RunProperty],
    location: str,
    *,
    color_tolerance: float,
) -> None:
    """Record, per reference run and property, whether the artifact draws the same
    characters the same way (``location`` names the paragraph; colours within
    ``color_tolerance`` CIEDE2000 are the same)."""
    ref_text, ref_owner, ref_runs = _chars(reference)
    art_text, art_owner, art_runs = _chars(artifact)
    if not ref_text or not art_text:
        return
    # reference character index -> artifact character index, where the texts agree
    aligned: dict[int, int] = {}
    if ref_text == art_text:  # the usual case: no alignment to compute
        aligned = {i: i for i in range(len(ref_text))}
    else:
        for block in difflib.SequenceMatcher(None, ref_text, art_text, autojunk=False).get_matching_blocks():
            for k in range(block.size):
                aligned[block.a + k] = block.b + k
    # per reference run, its aligned non-space characters grouped by the artifact run
    # they fall in: properties are then read once per run, not once per character
    by_run: dict[int, dict[int, list[int]]] = {}
    for i, j in aligned.items():
        if not ref_text[i].isspace():
            by_run.setdefault(ref_owner[i], {}).setdefault(art_owner[j], []).append(i)
    for k, run in enumerate(ref_runs):
        segments = by_run.get(k)
        if not segments:
            continue
        where = f'{location} run "{snippet(run.text, words=5)}"'
        count = sum(len(chars) for chars in segments.values())
        for prop in properties:
            expected = run_value(run.style, prop)
            wrong = [(run_value(art_runs[a].style, prop), chars) for a, chars in segments.items()]
            wrong = [(value, chars) for value, chars in wrong if not _equal(prop, expected, value, color_tolerance)]
            if not wrong:
                comparison.check(prop, where, expected, expected, equal=True)
                continue
            got = max(wrong, key=lambda w: len(w[1]))[0]
            differing = "".join(ref_text[i] for i in sorted(i for _, chars in wrong for i in chars))
            n = len(differing)
            note = f"{n} of {count} characters differ" + (f': "{snippet(differing, words=5)}"' if n < count else "")
            comparison.check(prop, where, expected, got, equal=False, note=note)
