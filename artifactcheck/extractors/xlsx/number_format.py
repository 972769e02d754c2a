"""Displayed text of a cell value under an Excel number format (what the grid shows).

Supported: General; ``0``, ``0.00``, ``#,##0``, ``#,##0.00`` and any digit/grouping
pattern; percent; scientific (``0.00E+00``); literal prefixes/suffixes (``"$"``,
``\\€``, ``[$€-407]``); up to four ``;`` sections (positive; negative; zero; text) with
colours and simple ``[>=100]`` conditions skipped/applied; ``@`` text; ``_x`` spacing (one
space) and ``*x`` fills (dropped); dates and times (``yyyy yy mmmm mmm mm m dddd ddd dd d
hh h mm ss AM/PM [h] [mm] [ss] .0``).

``?`` placeholders count as ``#`` (their space padding is not reproduced).
Not supported (the value is shown as General and ``supported`` is False): fractions
(``# ?/?``), ``E-`` engineering layouts beyond the simple case,
locale-dependent ``[$-F800]`` system date formats, Buddhist/Hijri calendars.
The text of a formula's cached value is formatted the same way.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import lru_cache

from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format
from openpyxl.utils.datetime import CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900, from_excel

_COLOR_OR_COND = re.compile(r"\[(?:[A-Za-z]+\d*|Color\s*\d+)\]", re.IGNORECASE)
_COND = re.compile(r"\[(<=|>=|<>|<|>|=)(-?[\d.]+)\]")
_LOCALE = re.compile(r"\[\$([^\]-]*)(?:-[0-9A-Fa-f]+)?\]")
_ELAPSED = re.compile(r"\[(h+|m+|s+)\]", re.IGNORECASE)
_MONTHS = [dt.date(2000, m, 1).strftime("%B") for m in range(1, 13)]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


@dataclass(frozen=True)
class Formatted:
    text: str
    supported: bool = True


# Built-in formats whose code depends on the reader's locale: ECMA-376 lists 14 as
# "mm-dd-yy" (openpyxl's table), but Excel and LibreOffice draw the system's short date,
# 3/15/2023 in en-US. Every date typed into Excel is stored as 14.
_LOCALE_BUILTINS = {14: "m/d/yyyy", 22: "m/d/yyyy h:mm"}


def builtin_format(num_fmt_id: int) -> str:
    """The format code of a built-in ``numFmtId`` as en-US Excel shows it (General when
    unknown)."""
    return _LOCALE_BUILTINS.get(num_fmt_id) or str(BUILTIN_FORMATS.get(num_fmt_id, "General"))


@lru_cache(maxsize=4096)
def is_date(fmt: str) -> bool:
    return fmt not in ("General", "@") and bool(is_date_format(fmt))


def general(value: float) -> str:
    """Excel's General format for a number in a standard-width cell: at most 11
    characters, 10 significant digits, scientific beyond that."""
    if value == 0:
        return "0"
    if isinstance(value, int) or float(value).is_integer():
        iv = int(value)
        if abs(iv) < 10**11:
            return str(iv)
    a = abs(value)
    if 1e-9 <= a < 1e11:
        int_digits = max(1, math.floor(math.log10(a)) + 1)
        decimals = max(0, 10 - int_digits)
        text = f"{value:.{decimals}f}"
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        if text not in ("0", "-0"):
            return text
    return _scientific(value, 5)


_EXACT_INTEGER = 2.0**53  # LibreOffice writes every digit of an integer below this


def lo_general(value: float) -> str:
    """LibreOffice's General text for a number in a column wide enough for it: up to 15
    significant digits (``0.666666666666667``, ``123456789012``, where Excel's General
    stops at 11 characters: ``0.666666667``, ``1.23457E+11``), every digit of an integer
    below 2**53, scientific from 1E+15 with a three-digit exponent (``1.5E+016``) and for
    tiny values (``1E-10``). Measured on LibreOffice 7.4 renders of columns 40 characters
    wide (tests/extractors/test_xlsx_values_as_shown.py); a column too narrow for this
    text shortens it (:func:`general_in_width`).

    >>> lo_general(123456789012345), lo_general(2 / 3), lo_general(10**16), lo_general(0.1 + 0.2)
    ('123456789012345', '0.666666666666667', '1E+016', '0.3')
    """
    a = abs(value)
    if a == 0:
        return "0"
    if float(value).is_integer() and a < _EXACT_INTEGER:
        return str(int(value))
    if a >= 1e15:
        mant, exp = f"{value:.14E}".split("E")
        return f"{_erase_zeros(mant)}E{'+' if int(exp) >= 0 else '-'}{abs(int(exp)):03d}"
    fixed = _erase_zeros(format(Decimal(f"{value:.15g}"), "f"))  # the 15 digits, never exponent form
    decimals = len(fixed.partition(".")[2])
    if a < _EXP_LOWER_BOUND and (a < 1e-9 or decimals > 18):
        return _scientific(value, 14)
    return fixed


# The room LibreOffice leaves for a cell's text: the column width less about 1 pt of
# margins (calibrated on renders of General numbers in columns 3-20 characters wide,
# tests/extractors/test_xlsx_general_width.py).
CELL_TEXT_MARGINS_PT = 1.0
_EXP_LOWER_BOUND = 1.0e-4  # LibreOffice writes smaller General numbers in scientific notation


def _erase_zeros(text: str) -> str:
    return text.rstrip("0").rstrip(".") if "." in text else text


def _scientific_in(value: float, chars: int) -> str:
    """``value`` in scientific notation in about ``chars`` characters (``1.23E+09``)."""
    exp10 = math.log10(abs(value))
    if exp10 < 0.0:
        exp10 = 1.0 - exp10
    fixed = 6 + (1 if exp10 >= 100.0 else 0)  # "1.E+00": the digit, point and exponent
    decimals = chars - fixed if chars > fixed else 0
    if decimals and math.copysign(1.0, value) < 0:
        decimals -= 1
    return _scientific(value, min(decimals, 14))


def _scientific(value: float, decimals: int) -> str:
    """``value`` as General writes scientific notation: trailing zeros of the mantissa
    dropped, a signed exponent of at least two digits (``1.23E+09``, ``5E-10``)."""
    mant, exp = f"{value:.{decimals}E}".split("E")
    e = int(exp)
    return f"{_erase_zeros(mant)}E{'+' if e >= 0 else '-'}{abs(e):02d}"


def _general_in(value: float, chars: int) -> str:
    """The General rendering of ``value`` in at most about ``chars`` characters: fixed
    notation with as many decimals as fit, else scientific."""
    a = abs(value)
    if a == 0:
        return "0"
    if a < _EXP_LOWER_BOUND:
        return _scientific_in(value, chars)
    exp10 = math.log10(a)
    before = math.ceil(exp10) if exp10 >= 0.0 else 1  # digits before the point
    if before > 15:
        return _scientific_in(value, chars)
    decimals = chars - before if chars >= before else 0
    if decimals and math.copysign(1.0, value) < 0:
        decimals -= 1  # room for the sign
    if decimals:
        decimals -= 1  # room for the point
    text = _erase_zeros(f"{value:.{min(decimals, max(0, 15 - before))}f}")
    return text if len(text) <= chars else _scientific_in(value, chars)


def general_in_width(value: float, room_pt: float, width_of: Callable[[str], float]) -> str | None:
    """What LibreOffice draws for a General number whose standard text is wider than its
    cell, or None for ``###``. ``room_pt``: the column width less
    :data:`CELL_TEXT_MARGINS_PT`; ``width_of``: a text's width in the cell's font.

    As LibreOffice (sc's SetTextToWidthOrHash): as many characters as digits fit the
    room; then points, minus signs and ``E`` (narrower than a digit) give back their
    difference and the text is made again with the characters that now fit; ``###`` when
    even that is wider than the room. So ``0.123456789`` shows ``0.123457`` and
    ``1234567890`` ``1.23E+09`` in a default-width column, and a tiny value in a narrow
    one shows ``0``.

    >>> digits = lambda s: 5.575 * len(s)  # every character as wide as a digit
    >>> general_in_width(1234567890, 47.0, digits), general_in_width(0.123456789, 47.0, digits)
    ('1.23E+09', '0.123457')
    >>> general_in_width(1234567, 20.0, digits) is None
    True
    """
    digit = max(width_of(d) for d in "0123456789")
    if digit <= 0:
        return None
    text = _general_in(value, int(room_pt // digit))
    points = text.count(".")
    if text == "0" and value != 0:
        points = 1  # a value rounded to 0 may fit with a decimal once the point is counted narrow
    extra = (
        points * (digit - width_of("."))
        + text.count("-") * (digit - width_of("-"))
        + text.count("E") * (digit - width_of("E"))
    )
    if extra:
        room_pt += extra
        text = _general_in(value, int(room_pt // digit))
    return text if width_of(text) <= room_pt else None


def _split_sections(fmt: str) -> list[str]:
    sections, cur, quoted, esc = [], [], False, False
    for ch in fmt:
        if esc:
            cur.append(ch)
            esc = False
        elif ch == "\\":
            cur.append(ch)
            esc = True
        elif ch == '"':
            quoted = not quoted
            cur.append(ch)
        elif ch == ";" and not quoted:
            sections.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    sections.append("".join(cur))
    return sections


def _lexemes(code: str) -> Iterator[tuple[str, str]]:
    """The pieces of a format code as (kind, text), by how each is written: ``quoted``
    ("text": the text inside), ``escaped`` (\\c), ``space_of`` (_c) and ``fill`` (*c):
    the character c; ``bracket`` ([...], whole); ``char``: any other one character."""
    i, n = 0, len(code)
    while i < n:
        ch = code[i]
        if ch == '"':
            j = code.find('"', i + 1)
            j = n if j < 0 else j
            yield "quoted", code[i + 1 : j]
            i = j + 1
        elif ch in "\\_*" and i + 1 < n:
            yield {"\\": "escaped", "_": "space_of", "*": "fill"}[ch], code[i + 1]
            i += 2
        elif ch == "[":
            j = code.find("]", i)
            j = n - 1 if j < 0 else j
            yield "bracket", code[i : j + 1]
            i = j + 1
        else:
            yield "char", ch
            i += 1


@lru_cache(maxsize=1024)  # a workbook has few formats and many cells
def _tokens(section: str) -> tuple[tuple[str, str], ...]:
    """Split a section into ('lit', text) and ('code', text) tokens."""
    out: list[tuple[str, str]] = []
    for kind, text in _lexemes(section):
        if kind in ("quoted", "escaped"):
            out.append(("lit", text))
        elif kind == "space_of":
            out.append(("lit", " "))
        elif kind == "bracket":
            m = _LOCALE.fullmatch(text)
            if m:
                out.append(("lit", m.group(1)))
            elif _ELAPSED.fullmatch(text):
                out.append(("code", text))
        elif kind == "char":
            out.append(("code", text))
        # fill: the repeat-fill character depends on the column width; dropped
    return tuple(out)


# Characters a format prints as themselves without quoting. Excel and LibreOffice
# save them escaped or not as they please (yyyy\-mm\-dd for the yyyy-mm-dd
# openpyxl writes): quoting them is no difference a reader can see.
_SELF_LITERAL = frozenset("$-+/():!^&'~{}<>= ")


def canonical_format(code: str) -> str:
    r"""The format code with every literal character written one way (``\c``), so two
    codes that print the same text compare equal; colours, conditions, ``_c`` and
    ``*c`` are kept as written.

    >>> canonical_format(r'yyyy\-mm\-dd') == canonical_format('yyyy-mm-dd')
    True
    >>> canonical_format('"h"') == canonical_format('h')
    False
    >>> canonical_format('#,##0" kr"') == canonical_format(r'#,##0\ \k\r')
    True
    """
    out: list[str] = []
    for kind, text in _lexemes(code):
        if kind in ("quoted", "escaped") or (kind == "char" and text in _SELF_LITERAL):
            out.extend("\\" + ch for ch in text)
        elif kind == "space_of":
            out.append("_" + text)
        elif kind == "fill":
            out.append("*" + text)
        else:
            out.append(text)
    return "".join(out)


def _pick_section(sections: list[str], value: float) -> tuple[str, bool]:
    """The section for ``value`` and whether its sign is already written by it."""
    conds = [_COND.search(s) for s in sections]
    if any(conds):
        # Who writes the minus, as LibreOffice prints it (its SvNumberformat: measured in
        # tests/extractors/test_xlsx_conditional_sections.py): a section after the first
        # never shows the number's sign; the first shows it unless it is "really the
        # negative section" ([<0] or [<=0], the next section's condition at 0 or none).
        # So [<0]0;0 prints -9004 as 9004, [<-10]0;0 as -9004, [>=1000]0;0 as 9004.
        chosen = len(sections) - 1
        for i, c in enumerate(conds):
            if c is None or _holds(c, value):
                chosen = i
                break
        if chosen > 0:
            return sections[chosen], True
        return sections[0], value < 0 and _first_is_negative_section(conds)
    if len(sections) >= 3 and value == 0:
        return sections[2], True
    if len(sections) >= 2 and value < 0:
        return sections[1], True
    return sections[0], False


def _holds(cond: re.Match[str], value: float) -> bool:
    op, num = cond.group(1), float(cond.group(2))
    return {
        "<": value < num, "<=": value <= num, ">": value > num,
        ">=": value >= num, "=": value == num, "<>": value != num,
    }[op]  # fmt: skip


def _first_is_negative_section(conds: list[re.Match[str] | None]) -> bool:
    """LibreOffice's ``IsFirstSubformatRealNegative``: [<0] before a section for [>0],
    [=0], [>=0] or none; or [<=0] before one for [>0] or none."""
    first = conds[0]
    second = conds[1] if len(conds) > 1 else None
    if first is None or float(first.group(2)) != 0:
        return False
    if second is not None and float(second.group(2)) != 0:
        return False
    op2 = second.group(1) if second is not None else None
    if first.group(1) == "<":
        return op2 in (None, ">", "=", ">=")
    return first.group(1) == "<=" and op2 in (None, ">")


def _format_number(value: float, section: str, sign_in_section: bool) -> Formatted:
    raw = _tokens(_COND.sub("", _COLOR_OR_COND.sub("", section)))
    if any(k == "code" and t == "/" for k, t in raw):
        shown = _format_fraction(value, raw, sign_in_section)
        return Formatted(general(value), supported=False) if shown is None else Formatted(shown)
    # "?" is a digit placeholder that pads with a space; treated as "#" (no padding).
    toks = [(k, "#" if k == "code" and t == "?" else t) for k, t in raw]
    code = "".join(t for k, t in toks if k == "code")
    if not any(c in code for c in "0#"):
        # Only literals ("-", "Total"): Excel shows them as they are.
        return Formatted("".join(t for _, t in toks), supported=True)
    percent = code.count("%")
    v = abs(value) if sign_in_section else value
    v = v * (100**percent)
    sci = re.search(r"[eE][+-]", code)
    if not sci and not percent and "." not in code and _digit_template(toks):
        return Formatted(_fill_template(toks, v, sign_in_section))
    num_part = code[: sci.start()] if sci else code
    dot = num_part.find(".")
    int_pat = num_part if dot < 0 else num_part[:dot]
    frac_pat = "" if dot < 0 else num_part[dot + 1 :]
    # Commas right of the last integer placeholder (before the point or at the end)
    # scale by 1000 each ("#,##0," shows thousands).
    scale = (len(int_pat) - len(int_pat.rstrip(","))) + (len(frac_pat) - len(frac_pat.rstrip(",")))
    int_pat, frac_pat = int_pat.rstrip(","), frac_pat.rstrip(",")
    if scale:
        v = v / (1000**scale)
    decimals = sum(1 for c in frac_pat if c in "0#")
    min_decimals = sum(1 for c in frac_pat if c == "0")
    grouping = "," in int_pat and re.search(r"[0#],[0#]", int_pat) is not None
    min_int = sum(1 for c in int_pat if c == "0")
    if sci:
        exp_digits = sum(1 for c in code[sci.end() :] if c in "0#") or 1
        if v == 0:
            mant, e = 0.0, 0
        else:
            e = math.floor(math.log10(abs(v)))
            mant = v / 10**e
            if round(abs(mant), decimals) >= 10:
                mant, e = mant / 10, e + 1
        body = f"{abs(mant):.{decimals}f}"
        sign_e = "-" if e < 0 else "+"
        number = f"{body}E{sign_e}{abs(e):0{exp_digits}d}"
        negative = mant < 0
    else:
        # Excel keeps 15 significant digits and rounds half away from zero (2.675 -> 2.68).
        r = Decimal(f"{abs(v):.15g}").quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
        body = f"{r:,.{decimals}f}" if grouping else f"{r:.{decimals}f}"
        if decimals > min_decimals and "." in body:
            whole, frac = body.split(".")
            frac = frac.rstrip("0")
            while len(frac) < min_decimals:
                frac += "0"
            body = whole + ("." + frac if frac or dot >= 0 else "")
        whole = body.split(".")[0]
        if min_int == 0 and whole in ("0",):
            body = body[1:] if body.startswith("0.") or body == "0" else body
        elif len(whole.replace(",", "")) < min_int:
            pad = min_int - len(whole.replace(",", ""))
            body = "0" * pad + body
        number = body
        negative = v < 0 and r != 0
    # Rebuild: literals in place, the number where the first digit placeholder was.
    out: list[str] = []
    placed = False
    for kind, t in toks:
        if kind == "lit":
            out.append(t)
        elif t in "0#.,?eE+-" or t.isdigit():
            if not placed and t in "0#.":
                out.append(number)
                placed = True
            elif t in "+-" and not placed:
                out.append(t)
        elif t == "%":
            out.append("%")
        elif t in " ()$€£¥:/":
            out.append(t)
        else:
            out.append(t)
    text = "".join(out)
    if negative and not sign_in_section:
        text = "-" + text
    return Formatted(text)


_FRACTION_PLACES = frozenset("0#?")
# [text] [whole placeholders, one space] numerator placeholders / denominator [text]
_FRACTION_SHAPE = re.compile(r"([^p/]*?)(?:(p+) )?(p+)/([pd]+)([^p/]*)")


def _format_fraction(value: float, toks: tuple[tuple[str, str], ...], sign_in_section: bool) -> str | None:
    """A fraction format of the usual shapes - "# ?/?", "# ??/??", "# ?/8", "?/?", "0 ?/?",
    with literal text only before or after - as LibreOffice prints it, measured: 2.75
    "2 3/4", 0.75 " 3/4" (the "#" prints nothing, the space stays), 3.0 "3", 1.234 in
    "# ??/??" "1 11/47" (the nearest fraction with a two-digit denominator), 0.5 in "# ?/8"
    " 4/8", 2.125 in "?/?" "17/8". The "?" padding spaces are left out. None for any other
    shape (literals between the parts, "=/=" and the like in POI's tests): the value is
    then shown General and flagged, not guessed."""
    # One class letter per token, so the shape is one regular expression: p a placeholder,
    # d a digit, / the slash, a space; anything else is text before or after.
    shape = "".join(
        "p" if k == "code" and t in _FRACTION_PLACES else "d" if k == "code" and t.isdigit()
        else "/" if k == "code" and t == "/" else " " if t == " " else "x"
        for k, t in toks
    )
    m = _FRACTION_SHAPE.fullmatch(shape)
    if m is None:
        return None
    head, tail = toks[: m.end(1)], toks[m.start(5) :]

    def code(group: int) -> str:
        return "".join(t for _, t in toks[m.start(group) : m.end(group)]) if m.start(group) >= 0 else ""

    int_code, den_code = code(2), code(4)
    if any(c.isdigit() for c in den_code) and not den_code.isdigit():
        return None
    x = Fraction(Decimal(f"{abs(value):.15g}"))
    whole = math.floor(x) if int_code else 0
    rest = x - whole
    if den_code.isdigit():
        den = int(den_code) or 1
        num = math.floor(rest * den + Fraction(1, 2))  # half up, exactly
    else:
        approx = rest.limit_denominator(10 ** len(den_code) - 1)
        num, den = approx.numerator, approx.denominator
    if int_code and num == den:  # rounds up to the next whole number
        whole, num = whole + 1, 0
    sign = "-" if value < 0 and (whole or num) and not sign_in_section else ""

    def lit(part: tuple[tuple[str, str], ...]) -> str:
        return "".join(t for _, t in part)

    if not int_code:
        return sign + lit(head) + (f"{num}/{den}" if num else "0") + lit(tail)
    int_text = str(whole) if whole else ("0" if "0" in int_code or not num else "")
    if not num:
        return sign + lit(head) + int_text + lit(tail)
    return sign + lit(head) + int_text + " " + f"{num}/{den}" + lit(tail)


def _digit_template(toks: list[tuple[str, str]]) -> bool:
    """Digit placeholders with other characters between them ("000-00-0000", "(###)
    ###-####", "00000-0000"): a template the digits are laid into, not one number."""
    places = [i for i, (k, t) in enumerate(toks) if k == "code" and t in "0#"]
    if len(places) < 2:
        return False
    between = toks[places[0] : places[-1] + 1]
    return any(k == "lit" or t not in "0#," for k, t in between)


def _fill_template(toks: list[tuple[str, str]], v: float, sign_in_section: bool) -> str:
    """The integer's digits laid into the placeholders from the right, the characters
    between them kept, as Excel and LibreOffice print 123456789 in "000-00-0000"
    ("123-45-6789") and 5551234567 in "(###) ###-####" ("(555) 123-4567"): a "0" with no
    digit left prints 0, a "#" nothing; digits beyond the placeholders go to the first."""
    r = int(Decimal(f"{abs(v):.15g}").quantize(Decimal(1), rounding=ROUND_HALF_UP))
    digits = str(r) if r else ""
    places = [i for i, (k, t) in enumerate(toks) if k == "code" and t in "0#"]
    filled: dict[int, str] = {}
    left = digits
    for i in reversed(places):
        if left:
            filled[i], left = left[-1], left[:-1]
        else:
            filled[i] = "0" if toks[i][1] == "0" else ""
    if left:
        filled[places[0]] = left + filled[places[0]]
    out = [filled.get(i, "" if k == "code" and t == "," else t) for i, (k, t) in enumerate(toks)]
    text = "".join(out)
    return "-" + text if v < 0 and r and not sign_in_section else text


@lru_cache(maxsize=1024)
def _date_plan(fmt: str) -> tuple[tuple[tuple[str, str], ...], bool]:
    """Tokens of a date format's first section, letter runs merged ("yyyy"), AM/PM and
    A/P collapsed into one code; and whether the clock is 12-hour."""
    section = _split_sections(fmt)[0]
    section = _COLOR_OR_COND.sub("", section) if not _ELAPSED.search(section) else section
    toks = _tokens(section)
    codes = [(k, t.lower() if k == "code" else t) for k, t in toks]
    merged: list[tuple[str, str]] = []
    i = 0
    while i < len(codes):
        k, t = codes[i]
        if k == "code" and t == "a":
            rest = "".join(c for kk, c in codes[i : i + 5] if kk == "code")
            if rest.startswith("am/pm"):
                merged.append(("code", "am/pm"))
                i += 5
                continue
            if rest.startswith("a/p"):
                merged.append(("code", "a/p"))
                i += 3
                continue
        if k == "code" and merged and merged[-1][0] == "code" and merged[-1][1][-1:] == t and t.isalpha():
            merged[-1] = ("code", merged[-1][1] + t)
        else:
            merged.append((k, t))
        i += 1
    ampm = any(k == "code" and t in ("am/pm", "a/p") for k, t in merged)
    return tuple(merged), ampm


@lru_cache(maxsize=65_536)  # dates repeat (a column of the same few days)
def _format_date(value: float, fmt: str, *, date1904: bool) -> Formatted:
    epoch = CALENDAR_MAC_1904 if date1904 else CALENDAR_WINDOWS_1900
    try:
        when = from_excel(value, epoch=epoch)
    except (ValueError, OverflowError, TypeError):
        return Formatted(general(value), supported=False)
    if isinstance(when, dt.timedelta):
        when = dt.datetime(1899, 12, 30) + when
    if isinstance(when, dt.time):
        when = dt.datetime.combine(dt.date(1899, 12, 31), when)
    if isinstance(when, dt.date) and not isinstance(when, dt.datetime):
        when = dt.datetime.combine(when, dt.time())
    merged, ampm = _date_plan(fmt)
    out: list[str] = []
    for idx, (k, t) in enumerate(merged):
        if k == "lit":
            out.append(t)
            continue
        if t == "am/pm":
            out.append("AM" if when.hour < 12 else "PM")
            continue
        if t == "a/p":
            out.append("A" if when.hour < 12 else "P")
            continue
        prev_code = next(
            (c.strip("[]") for kk, c in reversed(merged[:idx]) if kk == "code" and c.strip("[]").isalpha()), ""
        )
        next_code = next(
            (c.strip("[]") for kk, c in merged[idx + 1 :] if kk == "code" and c.strip("[]").isalpha()), ""
        )
        if t.startswith("[") and t.endswith("]"):
            unit = t[1]
            total = value * 86400
            if unit == "h":
                out.append(f"{int(total // 3600):0{len(t) - 2}d}")
            elif unit == "m":
                out.append(f"{int(total // 60):0{len(t) - 2}d}")
            else:
                out.append(f"{round(total):0{len(t) - 2}d}")
        elif t.startswith("y"):
            out.append(str(when.year) if len(t) > 2 else f"{when.year % 100:02d}")
        elif t.startswith("m") and (prev_code.startswith("h") or next_code.startswith("s")) and len(t) <= 2:
            out.append(f"{when.minute:0{len(t)}d}")
        elif t.startswith("m"):
            name = _MONTHS[when.month - 1]
            out.append(
                {1: str(when.month), 2: f"{when.month:02d}", 3: name[:3], 5: name[0]}.get(len(t), name)
            )
        elif t.startswith("d"):
            day = _DAYS[when.weekday()]
            out.append({1: str(when.day), 2: f"{when.day:02d}", 3: day[:3]}.get(len(t), day))
        elif t.startswith("h"):
            h = (when.hour % 12 or 12) if ampm else when.hour
            out.append(f"{h:0{min(len(t), 2)}d}")
        elif t.startswith("s"):
            out.append(f"{when.second:0{min(len(t), 2)}d}")
        elif t == "0" and out and out[-1][-1:].isdigit():
            out.append(f"{int(when.microsecond / 100000)}")
        else:
            out.append(t)
    return Formatted("".join(out))


@lru_cache(maxsize=4096)
def _sections(fmt: str) -> tuple[str, ...]:
    return tuple(_split_sections(fmt))


# Excel's eight colour names of number formats (ECMA-376 §18.8.31), exact sRGB values.
FORMAT_COLOUR_NAMES = {
    "black": "#000000", "blue": "#0000ff", "cyan": "#00ffff", "green": "#00ff00",
    "magenta": "#ff00ff", "red": "#ff0000", "white": "#ffffff", "yellow": "#ffff00",
}
_SECTION_COLOUR = re.compile(r"\[(black|blue|cyan|green|magenta|red|white|yellow|color\s*(\d{1,2}))\]", re.IGNORECASE)


@lru_cache(maxsize=4096)
def _section_colour(section: str) -> str | int | None:
    """The colour a section names: ``#rrggbb`` for a colour name, the palette index
    (``[ColorN]`` is indexed colour N + 7: [Color1] black ... [Color56]) or None.
    Quoted literals are skipped: ``"[Red]"`` in quotes is text."""
    unquoted = re.sub(r'"[^"]*"', "", section)
    m = _SECTION_COLOUR.search(unquoted)
    if m is None:
        return None
    if m.group(2) is not None:
        n = int(m.group(2))
        return n + 7 if 1 <= n <= 56 else None
    return FORMAT_COLOUR_NAMES[m.group(1).lower()]


def _has_text_placeholder(section: str) -> bool:
    return "@" in re.sub(r'"[^"]*"', "", section)


def format_colour(value: object, fmt: str) -> str | int | None:
    """The font colour a number format gives ``value`` (``[Red]``, ``[Color10]``, the
    negative section's colour, a ``[<0]`` condition's section): ``#rrggbb``, a palette
    index for ``[ColorN]`` (resolve it with the workbook's indexed colours), or None
    when the format names no colour for this value.

    Numbers use the section that formats them. Text takes the colour of the text
    section only: the fourth section, or a single section holding ``@`` (LibreOffice
    and Excel leave text in ``[Red]0`` or ``[Red]General`` black). Booleans, errors
    and blanks take none.
    """
    if value is None or isinstance(value, bool) or "[" not in fmt:
        return None
    secs = _sections(fmt)
    if isinstance(value, str):
        if len(secs) >= 4:
            return _section_colour(secs[3])
        if len(secs) == 1 and _has_text_placeholder(secs[0]):
            return _section_colour(secs[0])
        return None
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    if is_date(fmt):
        return _section_colour(secs[0])
    section, _signed = _pick_section(list(secs), float(value))
    return _section_colour(section)


def format_value(value: object, fmt: str, *, date1904: bool = False) -> Formatted:
    """The text Excel shows for ``value`` (a number, str, bool or error string)."""
    if value is None:
        return Formatted("")
    if isinstance(value, bool):
        return Formatted("TRUE" if value else "FALSE")
    if isinstance(value, str):
        secs = _sections(fmt)
        if len(secs) >= 4 and "@" in secs[3]:
            toks = _tokens(secs[3])
            return Formatted("".join(value if (k == "code" and t == "@") else t for k, t in toks if k == "lit" or t == "@"))
        return Formatted(value)
    if not isinstance(value, (int, float)) or isinstance(value, float) and not math.isfinite(value):
        return Formatted(str(value))
    if fmt in ("General", "") or fmt.lower() == "general":
        return Formatted(general(value))
    if fmt == "@":
        return Formatted(general(value))
    if is_date(fmt):
        return _format_date(float(value), fmt, date1904=date1904)
    section, signed = _pick_section(list(_sections(fmt)), float(value))
    if section.strip().lower() == "general":
        return Formatted(("-" if value < 0 and not signed else "") + general(abs(value)) if signed else general(value))
    return _format_number(float(value), section, signed)
