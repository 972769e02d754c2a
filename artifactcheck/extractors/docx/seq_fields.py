"""SEQ fields (caption numbers) show the count LibreOffice and Word compute, not what the
file stored.

An agent writes a caption as python-docx users are taught: "Figure " + a ``SEQ Figure
\\* ARABIC`` field (begin, instruction, end: no stored result) + ": Sales by region".
LibreOffice prints "Figure 1", "Figure 2"... (it makes each SEQ a number-range field and
counts them), and so does Word once fields are updated; an agent that copied one caption
stores "1" in each, and the page still prints 1, 2, 3. So "Figure 2: ..." must be found
on the text the page shows. The first result run of each SEQ field gets the number, the
stored result is kept in ``field_result_stored`` (tests/extractors/test_docx_text_as_seen.py).

Switches read: ``\\r N`` (restart at N), ``\\c`` (repeat the current number), ``\\h``
(hidden: prints nothing), ``\\*`` ARABIC / alphabetic / ALPHABETIC / roman / ROMAN. A field
with ``\\s`` (restart at each heading of a level) keeps its stored text: its count depends
on chapter numbering we do not model. A SEQ with no switch at all keeps its stored text
and is not counted, as LibreOffice 7.4 prints it (measured: two ``SEQ Alpha`` storing "7"
print "7", "7"; with ``\\* ARABIC`` or ``\\n`` they print 1, 2). Word would count them
once fields are updated; the render is the truth here.
"""

from __future__ import annotations

import re

from ...model import Node
from .field_results import marked_fields, show_result
from .numbering import format_number

_FORMATS = {"arabic": "decimal", "alphabetic": "Letter", "roman": "Roman"}


def show_seq_fields(root: Node) -> None:
    """Give every SEQ field's result the number it prints, in document order, in place;
    drop the extractor's private ``_seq`` marks."""
    counters: dict[str, int] = {}
    for instr, runs in marked_fields(root, "_seq"):
        shown = _next_value(instr, counters)
        if shown is not None:
            show_result(runs, shown)


def _next_value(instr: str, counters: dict[str, int]) -> str | None:
    """What this SEQ field prints, the identifier's counter moved on; None to keep the
    stored text (a field we cannot count)."""
    words = _words(instr)
    if len(words) < 2 or words[0].upper() != "SEQ":
        return None
    ident, switches = words[1], [w.lower() for w in words[2:]]
    if not switches or "\\s" in switches:
        # LibreOffice 7.4 prints a SEQ without switches as stored ("7", "7"; nothing
        # when nothing is stored) and does not count it; \s is chapter-relative.
        return None
    value = counters.get(ident, 0)
    if "\\r" in switches and (at := switches.index("\\r")) + 1 < len(switches):
        try:
            value = int(switches[at + 1])
        except ValueError:
            value += 1
    elif "\\c" not in switches:
        value += 1
    counters[ident] = value
    if "\\h" in switches:
        return ""
    return format_number(value, _number_format(words))


_WORD = re.compile(r'"([^"]*)"|(\S+)')


def _words(instr: str) -> list[str]:
    """The field instruction's words; a quoted one without its quotes (backslashes are
    switches here, not escapes)."""
    return [bare or quoted for quoted, bare in _WORD.findall(instr)]


def _number_format(words: list[str]) -> str:
    """The ``w:numFmt`` name for the field's ``\\*`` switch (decimal by default): the
    switch's letter case says the letters' case (``alphabetic`` a, b; ``ALPHABETIC`` A, B)."""
    for i, word in enumerate(words[:-1]):
        if word == "\\*":
            name = words[i + 1]
            kind = _FORMATS.get(name.lower())
            if kind is None or kind == "decimal":
                return "decimal"
            return ("upper" if name.isupper() else "lower") + kind
    return "decimal"
