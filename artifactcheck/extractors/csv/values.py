"""A CSV field's value as Excel (en-US, opening the file by double-click) types it, with
the number format Excel gives it. Measured against LibreOffice's CSV import with "detect
special numbers" on and en-US (the same rules; ``tests/extractors/test_csv.py`` compares
every cell of a mixed file with LibreOffice's reading):

- blank (empty or only spaces) → no cell; other text keeps its spaces;
- ``TRUE``/``FALSE`` in any case → booleans;
- decimal numbers, with a sign, thousands separators (``1,234.5``), exponents
  (``1.5e3``), in parentheses (``(42)`` = -42), with a ``%`` (``12.5%`` = 0.125) or a
  leading ``$`` → numbers. **Leading zeros are dropped** (``00501`` → 501), as Excel and
  LibreOffice both do; the field as written stays in the cell's ``csv_text`` when it differs from what the cell shows. Numbers
  beyond 15 significant digits keep 15, as Excel does (``1234567890123456789`` →
  1.23456789012346E+18);
- dates ``m/d/yyyy``, ``m/d/yy`` (two-digit years 00-29 → 20xx, 30-99 → 19xx) and ISO
  ``yyyy-mm-dd`` (with an optional `` hh:mm[:ss]``), and times ``h:mm[:ss]`` with an
  optional ``AM``/``PM`` → date/time values. ``day_first=True`` reads ``d/m/yyyy`` instead
  (a European Excel). An impossible date (``13/01/2024`` month-first) stays text.

Number formats follow what Excel shows for such input: ``#,##0.00`` for thousands
separators, ``0%``/``0.00%``, ``$#,##0.00``, ``0.00E+00``, ``m/d/yyyy``, ``h:mm``...
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation

__all__ = ["CellValue", "excel_value"]

CellValue = str | float | int | bool | dt.datetime | dt.time

_NUMBER = re.compile(
    r"""^(?P<open>\()?(?P<sign>[+-])?(?P<cur>\$)?
        (?P<int>\d{1,3}(?:,\d{3})+|\d*)(?P<frac>\.\d*)?(?P<exp>[eE][+-]?\d+)?
        (?P<pct>%)?(?P<close>\))?$""",
    re.VERBOSE,
)
_MDY = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})$")
_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ ](\d{1,2}):(\d{2})(?::(\d{2}))?)?$")
_TIME = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp])[Mm])?$")


def excel_value(text: str, *, day_first: bool = False) -> tuple[CellValue, str] | None:
    """``(value, number_format)`` of one field, or None for a blank field."""
    stripped = text.strip()
    if not stripped:
        return None
    upper = stripped.upper()
    if upper in ("TRUE", "FALSE"):
        return upper == "TRUE", "General"
    number = _number(stripped)
    if number is not None:
        return number
    when = _date(stripped, day_first=day_first)
    if when is not None:
        return when
    return text, "General"


def _number(s: str) -> tuple[CellValue, str] | None:
    m = _NUMBER.match(s)
    if m is None or bool(m["open"]) != bool(m["close"]):
        return None
    digits = (m["int"] or "") + (m["frac"] or "")
    if not any(ch.isdigit() for ch in digits):
        return None
    try:
        value = Decimal(digits.replace(",", "") + (m["exp"] or ""))
    except InvalidOperation:
        return None
    if m["sign"] == "-" or m["open"]:
        value = -value
    if m["pct"]:
        value /= 100
    decimals = len(m["frac"]) - 1 if m["frac"] else 0
    if m["pct"]:
        fmt = "0%" if decimals == 0 else "0." + "0" * decimals + "%"
    elif m["cur"]:
        fmt = "$#,##0" if decimals == 0 else "$#,##0.00"
    elif m["exp"]:
        fmt = "0.00E+00"
    elif "," in (m["int"] or ""):
        fmt = "#,##0" if decimals == 0 else "#,##0." + "0" * decimals
    else:
        fmt = "General"
    return _excel_number(value), fmt


def _excel_number(value: Decimal) -> float | int:
    """An int when it is whole and exact in a double, else a float of 15 significant
    digits (Excel keeps no more)."""
    if value == value.to_integral_value() and abs(value) < 2**53:
        return int(value)
    return float(f"{value:.15g}")


def _date(s: str, *, day_first: bool) -> tuple[CellValue, str] | None:
    try:
        m = _MDY.match(s)
        if m:
            a, b, y = int(m[1]), int(m[2]), int(m[3])
            if len(m[3]) == 2:
                y += 2000 if y < 30 else 1900
            month, day = (b, a) if day_first else (a, b)
            return dt.datetime(y, month, day), ("d/m/yyyy" if day_first else "m/d/yyyy")
        m = _ISO.match(s)
        if m:
            when = dt.datetime(int(m[1]), int(m[2]), int(m[3]), int(m[4] or 0), int(m[5] or 0), int(m[6] or 0))
            return when, ("yyyy-mm-dd h:mm" if m[4] else "yyyy-mm-dd")
        m = _TIME.match(s)
        if m:
            hour, minute, second = int(m[1]), int(m[2]), int(m[3] or 0)
            if m[4]:
                if not 1 <= hour <= 12:
                    return None
                hour = hour % 12 + (12 if m[4].lower() == "p" else 0)
            fmt = ("h:mm:ss" if m[3] else "h:mm") + (" AM/PM" if m[4] else "")
            return dt.time(hour, minute, second), fmt
    except ValueError:  # 13/45/2024, 25:00: not a date, text
        return None
    return None
