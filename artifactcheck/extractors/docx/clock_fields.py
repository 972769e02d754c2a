"""DATE and TIME fields show the moment the document is opened, not what the file stored.

An agent writes ``DATE \\@ "d MMMM yyyy"`` with a result "15 March 2024": Word and
LibreOffice print today's date in that picture ("3 December 2026"), so "is the date 15
March 2024?" must not pass on the stored text. The field's result runs show the day of
loading in the field's picture; the stored result stays in ``field_result_stored``. A
field without a picture keeps its stored text (the default picture is the reader's
locale). CREATEDATE, SAVEDATE and PRINTDATE are dates the file keeps, and are left as
stored (tests/extractors/test_docx_clock_fields.py).
"""

from __future__ import annotations

import re
from datetime import datetime

from ...model import Node
from .field_results import marked_fields, show_result

_PICTURE = re.compile(r'\\@\s*(?:"([^"]*)"|(\S+))')
# Word's date-time picture codes, longest first; text in single quotes is literal.
_CODES = re.compile(r"'[^']*'|yyyy|yy|MMMM|MMM|MM|M|dddd|ddd|dd|d|HH|H|hh|h|mm|m|ss|s|AM/PM|am/pm|A/P|a/p")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")  # fmt: skip
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def show_clock_fields(root: Node, now: datetime | None = None) -> None:
    """Give every DATE/TIME field with a picture the text it shows at ``now`` (default:
    the moment of loading), in place; drop the extractor's private ``_clock`` marks."""
    now = now or datetime.now()
    for instr, runs in marked_fields(root, "_clock"):
        m = _PICTURE.search(instr)
        if m is not None:
            show_result(runs, format_picture(now, m.group(1) if m.group(1) is not None else m.group(2)))


def format_picture(moment: datetime, picture: str) -> str:
    """``moment`` in a Word date-time picture (``d MMMM yyyy``, ``MM/dd/yy h:mm am/pm``).

    >>> format_picture(datetime(2026, 12, 3, 14, 5), "dddd, d MMMM yyyy 'at' h:mm AM/PM")
    'Thursday, 3 December 2026 at 2:05 PM'
    """
    hour12 = moment.hour % 12 or 12
    upper = moment.hour >= 12

    def code(m: re.Match[str]) -> str:
        c = m.group(0)
        if c.startswith("'"):
            return c[1:-1]
        return {
            "yyyy": f"{moment.year:04d}", "yy": f"{moment.year % 100:02d}",
            "MMMM": _MONTHS[moment.month - 1], "MMM": _MONTHS[moment.month - 1][:3],
            "MM": f"{moment.month:02d}", "M": str(moment.month),
            "dddd": _DAYS[moment.weekday()], "ddd": _DAYS[moment.weekday()][:3],
            "dd": f"{moment.day:02d}", "d": str(moment.day),
            "HH": f"{moment.hour:02d}", "H": str(moment.hour), "hh": f"{hour12:02d}", "h": str(hour12),
            "mm": f"{moment.minute:02d}", "m": str(moment.minute), "ss": f"{moment.second:02d}", "s": str(moment.second),
            "AM/PM": "PM" if upper else "AM", "am/pm": "pm" if upper else "am",
            "A/P": "P" if upper else "A", "a/p": "p" if upper else "a",
        }[c]  # fmt: skip

    return _CODES.sub(code, picture)
