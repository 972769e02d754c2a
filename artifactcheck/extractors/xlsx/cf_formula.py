"""Excel formulas of conditional formatting rules, compiled once per rule and evaluated
per cell: ``$C2="urgent"``, ``AND($B2>10,$C2<>"")``, ``MOD(ROW(),2)=0``, ``ISBLANK(A1)``,
``A1>AVERAGE($A$1:$A$20)``, ``COUNTIF($A:$A,A1)>1``, ``TODAY()-$D2>30``.

Tokens come from openpyxl's formula tokenizer (``openpyxl.formula.tokenizer``, already a
dependency, maintained with openpyxl); this module parses them by precedence into
closures. Not the ``formulas`` package: it compiles a 4-term rule in ~2 ms after a 1.4 s
first-use warm-up, evaluates one cell in 0.2-0.6 ms (a 10k-cell range: seconds), and
cannot evaluate ``ROW()`` without a cell of its own; a closure here takes a few µs
(design/xlsx-display.md has the numbers).

References are relative to the rule's anchor (the top-left cell of its first range), as
Excel stores them: ``$A1`` in a rule over ``A2:E20`` reads column A of the row being
evaluated. Values: None (blank), float, str, bool, :class:`XlError`; a range is a
:class:`Area`. A formula with anything this module does not know (a function outside
:data:`FUNCTIONS`, another sheet, a defined name, array constants) does not compile:
:func:`compile_formula` returns None and the rule is reported as not evaluated, never
guessed.
"""

from __future__ import annotations

import datetime as dt
import math
import operator
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from openpyxl.formula.tokenizer import Token, Tokenizer

from .grid import MAX_COLS, MAX_ROWS


class XlError(str):
    """An Excel error value (``#DIV/0!``, ``#VALUE!``, ...)."""


DIV0, VALUE, NA, NUM, REF = XlError("#DIV/0!"), XlError("#VALUE!"), XlError("#N/A"), XlError("#NUM!"), XlError("#REF!")


@dataclass(frozen=True)
class Area:
    """A rectangle of cell values, row-major (``values[i * width + j]``)."""

    values: tuple[Any, ...]
    width: int

    def cells(self) -> Iterator[Any]:
        return iter(self.values)


@dataclass
class Context:
    """Where a formula is evaluated: ``value(row, col)`` reads a cell (None when blank),
    ``cells_in(r0, c0, r1, c1)`` the non-blank cells of a rectangle (whole columns stay
    cheap), ``row``/``col`` the cell being evaluated (1-based), ``dr``/``dc`` its offset
    from the rule's anchor, ``today`` the date TODAY() returns."""

    value: Callable[[int, int], Any]
    cells_in: Callable[[int, int, int, int], list[Any]]
    row: int = 1
    col: int = 1
    dr: int = 0
    dc: int = 0
    today: dt.date = dt.date(2000, 1, 1)
    date1904: bool = False


Compiled = Callable[[Context], Any]


class Unsupported(Exception):
    """The formula uses something this module does not evaluate."""


# -- coercions (Excel's rules) -----------------------------------------------------


def to_number(v: Any) -> float | XlError:
    if isinstance(v, XlError):
        return v
    if v is None:
        return 0.0
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v.strip().replace(",", ""))
        except ValueError:
            return VALUE
    return VALUE


def to_text(v: Any) -> str | XlError:
    if isinstance(v, XlError):
        return v
    if v is None:
        return ""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v)
    if isinstance(v, int):
        return str(v)
    return str(v)


def to_bool(v: Any) -> bool | XlError:
    if isinstance(v, XlError):
        return v
    if v is None:
        return False
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float)):
        return v != 0
    if isinstance(v, str):
        up = v.strip().upper()
        if up in ("TRUE", "FALSE"):
            return up == "TRUE"
    return VALUE


def truthy(v: Any) -> bool:
    """Does a rule's result switch its format on? (TRUE or a non-zero number; text and
    errors do not.)"""
    if isinstance(v, Area):
        v = v.values[0] if v.values else None
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float)) and not isinstance(v, XlError):
        return v != 0
    return False


def _rank(v: Any) -> tuple[int, Any]:
    """Excel's order across types: numbers < text < logicals; text case-insensitive."""
    if isinstance(v, bool):
        return (2, v)
    if isinstance(v, (int, float)):
        return (0, float(v))
    return (1, str(v).casefold())


def compare(a: Any, op: str, b: Any) -> bool | XlError:
    """``a op b`` as Excel compares cell values (blank is 0 against a number, "" against
    text, FALSE against a logical)."""
    if isinstance(a, XlError):
        return a
    if isinstance(b, XlError):
        return b
    if a is None:
        a = 0.0 if isinstance(b, (int, float)) and not isinstance(b, bool) else (False if isinstance(b, bool) else "")
    if b is None:
        b = 0.0 if isinstance(a, (int, float)) and not isinstance(a, bool) else (False if isinstance(a, bool) else "")
    ka, kb = _rank(a), _rank(b)
    return bool(_CMP[op](ka, kb))


_CMP: dict[str, Callable[[Any, Any], bool]] = {
    "=": operator.eq, "<>": operator.ne, "<": operator.lt, ">": operator.gt, "<=": operator.le, ">=": operator.ge,
}


def _scalar(v: Any) -> Any:
    """An area used where one value is expected: its first cell (the implicit
    intersection Excel would do is not modelled)."""
    if isinstance(v, Area):
        return v.values[0] if v.values else None
    return v


# -- references --------------------------------------------------------------------


def _parse_ref(text: str) -> tuple[int, int, bool, bool] | None:
    """``$B$2`` -> (row 2, col 2, row_abs, col_abs); None when not a cell reference."""
    i = 0
    col_abs = text.startswith("$")
    if col_abs:
        i = 1
    j = i
    while j < len(text) and text[j].isalpha():
        j += 1
    letters = text[i:j]
    row_abs = j < len(text) and text[j] == "$"
    k = j + 1 if row_abs else j
    digits = text[k:]
    if not letters or not digits.isdigit() or len(letters) > 3:
        return None
    col = 0
    for ch in letters.upper():
        col = col * 26 + ord(ch) - 64
    row = int(digits)
    if not (1 <= col <= MAX_COLS and 1 <= row <= MAX_ROWS):
        return None
    return row, col, row_abs, col_abs


def _parse_line(text: str, letters: bool) -> tuple[int, bool] | None:
    """One end of a whole-column (``$A``) or whole-row (``3``) range."""
    absolute = text.startswith("$")
    body = text[1:] if absolute else text
    if letters and body.isalpha() and len(body) <= 3:
        col = 0
        for ch in body.upper():
            col = col * 26 + ord(ch) - 64
        return (col, absolute) if col <= MAX_COLS else None
    if not letters and body.isdigit():
        return (int(body), absolute) if 1 <= int(body) <= MAX_ROWS else None
    return None


def _shift(v: int, absolute: bool, delta: int) -> int:
    return v if absolute else v + delta


def _compile_ref(text: str) -> Compiled:
    if "!" in text or "[" in text:
        raise Unsupported(f"reference to another sheet or workbook: {text}")
    if ":" not in text:
        ref = _parse_ref(text)
        if ref is None:
            raise Unsupported(f"not a cell reference (a defined name?): {text}")
        row, col, row_abs, col_abs = ref

        def cell(ctx: Context) -> Any:
            r, c = _shift(row, row_abs, ctx.dr), _shift(col, col_abs, ctx.dc)
            if not (1 <= r <= MAX_ROWS and 1 <= c <= MAX_COLS):
                return REF
            return ctx.value(r, c)

        return cell
    a, b = text.split(":", 1)
    ra, rb = _parse_ref(a), _parse_ref(b)
    if ra is not None and rb is not None:
        (r0, c0, r0a, c0a), (r1, c1, r1a, c1a) = ra, rb
        return _area(lambda ctx: (_shift(r0, r0a, ctx.dr), _shift(c0, c0a, ctx.dc),
                                  _shift(r1, r1a, ctx.dr), _shift(c1, c1a, ctx.dc)))
    ca, cb = _parse_line(a, True), _parse_line(b, True)
    if ca is not None and cb is not None:
        return _area(lambda ctx: (1, _shift(ca[0], ca[1], ctx.dc), MAX_ROWS, _shift(cb[0], cb[1], ctx.dc)))
    la, lb = _parse_line(a, False), _parse_line(b, False)
    if la is not None and lb is not None:
        return _area(lambda ctx: (_shift(la[0], la[1], ctx.dr), 1, _shift(lb[0], lb[1], ctx.dr), MAX_COLS))
    raise Unsupported(f"not a range: {text}")


_MAX_DENSE = 100_000  # cells an area may hold densely (blanks included); beyond: non-blank only


def _area(bounds: Callable[[Context], tuple[int, int, int, int]]) -> Compiled:
    def area(ctx: Context) -> Any:
        r0, c0, r1, c1 = bounds(ctx)
        r0, r1 = min(r0, r1), max(r0, r1)
        c0, c1 = min(c0, c1), max(c0, c1)
        if r0 < 1 or c0 < 1 or r1 > MAX_ROWS or c1 > MAX_COLS:
            return REF
        if (r1 - r0 + 1) * (c1 - c0 + 1) > _MAX_DENSE:
            # Whole columns: the non-blank cells only (blanks do not change SUM, COUNT,
            # AVERAGE, COUNTIF of a value; COUNTBLANK over such an area is not supported).
            return Area(tuple(ctx.cells_in(r0, c0, r1, c1)), 0)
        return Area(tuple(ctx.value(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)), c1 - c0 + 1)

    return area


# -- functions -----------------------------------------------------------------------


def _flat(args: Sequence[Any]) -> Iterator[Any]:
    for a in args:
        if isinstance(a, Area):
            yield from a.values
        else:
            yield a


def _numbers(args: Sequence[Any]) -> list[float] | XlError:
    """Numbers of SUM-like arguments: cells of areas count only when numeric; direct
    arguments are coerced (a text that is not a number is #VALUE!)."""
    out: list[float] = []
    for a in args:
        if isinstance(a, Area):
            for v in a.values:
                if isinstance(v, XlError):
                    return v
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    out.append(float(v))
        else:
            n = to_number(a)
            if isinstance(n, XlError):
                return n
            out.append(n)
    return out


def _agg(fn: Callable[[list[float]], Any]) -> Callable[..., Any]:
    def run(*args: Any) -> Any:
        nums = _numbers(args)
        return nums if isinstance(nums, XlError) else fn(nums)

    return run


def _average(nums: list[float]) -> Any:
    return sum(nums) / len(nums) if nums else DIV0


def _and(*args: Any) -> Any:
    vals = [v for v in _flat(args) if v is not None and not (isinstance(v, str) and not isinstance(v, XlError))]
    for v in vals:
        b = to_bool(v)
        if isinstance(b, XlError):
            return b
        if not b:
            return False
    return bool(vals) or VALUE


def _or(*args: Any) -> Any:
    vals = [v for v in _flat(args) if v is not None and not (isinstance(v, str) and not isinstance(v, XlError))]
    for v in vals:
        b = to_bool(v)
        if isinstance(b, XlError):
            return b
        if b:
            return True
    return False if vals else VALUE


def _num1(fn: Callable[[float], Any]) -> Callable[..., Any]:
    def run(v: Any) -> Any:
        n = to_number(_scalar(v))
        return n if isinstance(n, XlError) else fn(n)

    return run


def _txt1(fn: Callable[[str], Any]) -> Callable[..., Any]:
    def run(v: Any) -> Any:
        t = to_text(_scalar(v))
        return t if isinstance(t, XlError) else fn(t)

    return run


def _error_in(*values: Any) -> XlError | None:
    """The first error among coerced arguments (Excel propagates it)."""
    return next((v for v in values if isinstance(v, XlError)), None)


def _mod(a: Any, b: Any) -> Any:
    x, y = to_number(_scalar(a)), to_number(_scalar(b))
    if (err := _error_in(x, y)) is not None:
        return err
    assert isinstance(x, float) and isinstance(y, float)
    if y == 0:
        return DIV0
    return x - y * math.floor(x / y)


def _round(v: Any, digits: Any = 0.0) -> Any:
    x, d = to_number(_scalar(v)), to_number(_scalar(digits))
    if (err := _error_in(x, d)) is not None:
        return err
    assert isinstance(x, float) and isinstance(d, float)
    q = 10 ** int(d)
    return math.copysign(math.floor(abs(x) * q + 0.5) / q, x)


def _left(v: Any, n: Any = 1.0) -> Any:
    t, k = to_text(_scalar(v)), to_number(_scalar(n))
    return t if isinstance(t, XlError) else (k if isinstance(k, XlError) else t[: int(k)])


def _right(v: Any, n: Any = 1.0) -> Any:
    t, k = to_text(_scalar(v)), to_number(_scalar(n))
    if (err := _error_in(t, k)) is not None:
        return err
    assert isinstance(t, str) and isinstance(k, float)
    return t[len(t) - int(k):] if int(k) else ""


def _mid(v: Any, start: Any, n: Any) -> Any:
    t, s, k = to_text(_scalar(v)), to_number(_scalar(start)), to_number(_scalar(n))
    if (err := _error_in(t, s, k)) is not None:
        return err
    assert isinstance(t, str) and isinstance(s, float) and isinstance(k, float)
    return VALUE if s < 1 else t[int(s) - 1 : int(s) - 1 + int(k)]


def _find(case: bool) -> Callable[..., Any]:
    def run(needle: Any, hay: Any, start: Any = 1.0) -> Any:
        n, h, s = to_text(_scalar(needle)), to_text(_scalar(hay)), to_number(_scalar(start))
        if (err := _error_in(n, h, s)) is not None:
            return err
        assert isinstance(n, str) and isinstance(h, str) and isinstance(s, float)
        i = (h.find(n, int(s) - 1) if case else h.casefold().find(n.casefold(), int(s) - 1))
        return float(i + 1) if i >= 0 else VALUE

    return run


def _not(b: bool | XlError) -> Any:
    return b if isinstance(b, XlError) else not b


def _if(cond: Any, yes: Any = True, no: Any = False) -> Any:
    b = to_bool(_scalar(cond))
    if isinstance(b, XlError):
        return b
    return yes if b else no


def _iferror(v: Any, alt: Any) -> Any:
    return alt if isinstance(_scalar(v), XlError) else v


def _criterion(crit: Any) -> Callable[[Any], bool]:
    """COUNTIF's criterion: ``">5"``, ``"<>x"``, ``"abc"`` (case-insensitive), a number."""
    c = _scalar(crit)
    if isinstance(c, str) and not isinstance(c, XlError):
        for op in ("<>", ">=", "<=", "=", ">", "<"):
            if c.startswith(op):
                rest = c[len(op):]
                num = to_number(rest)
                target: Any = rest if isinstance(num, XlError) or rest == "" else num
                if op == "=" and rest == "":
                    return lambda v: v is None or v == ""
                if op == "<>" and rest == "":
                    return lambda v: v is not None and v != ""
                return _compare_with(op, target)
        num = to_number(c)
        if not isinstance(num, XlError) and c.strip():
            return lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and float(v) == num
        return lambda v: isinstance(v, str) and v.casefold() == c.casefold()
    if isinstance(c, bool):
        return lambda v: v is c
    if isinstance(c, (int, float)):
        return lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and float(v) == float(c)
    return lambda v: v is None


def _compare_with(op: str, target: Any) -> Callable[[Any], bool]:
    def test(v: Any) -> bool:
        if op == "<>":
            return compare(v, op, target) is True
        return v is not None and _same_kind(v, target) and compare(v, op, target) is True

    return test


def _same_kind(v: Any, target: Any) -> bool:
    if isinstance(target, float):
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    return isinstance(v, str)


def _countif(area: Any, crit: Any) -> Any:
    test = _criterion(crit)
    return float(sum(1 for v in _flat([area]) if test(v)))


def _counta(*args: Any) -> Any:
    return float(sum(1 for v in _flat(args) if v is not None and v != ""))


def _countblank(area: Any) -> Any:
    if isinstance(area, Area) and area.width == 0:
        raise Unsupported("COUNTBLANK over whole columns")
    return float(sum(1 for v in _flat([area]) if v is None or v == ""))


def _count(*args: Any) -> Any:
    return float(sum(1 for v in _flat(args) if isinstance(v, (int, float)) and not isinstance(v, bool)))


def _is(pred: Callable[[Any], bool]) -> Callable[..., Any]:
    return lambda v: pred(_scalar(v))


def serial_to_date(serial: float, date1904: bool) -> dt.date:
    base = dt.date(1904, 1, 1) if date1904 else dt.date(1899, 12, 30)
    if not date1904 and serial < 61:
        serial += 1  # Excel's fictitious 1900-02-29
    return base + dt.timedelta(days=int(serial))


def date_to_serial(day: dt.date, date1904: bool) -> float:
    base = dt.date(1904, 1, 1) if date1904 else dt.date(1899, 12, 30)
    return float((day - base).days)


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "AND": _and, "OR": _or, "NOT": lambda v: _not(to_bool(_scalar(v))),
    "IF": _if, "IFERROR": _iferror, "TRUE": lambda: True, "FALSE": lambda: False, "NA": lambda: NA,
    "XOR": lambda *a: sum(1 for v in _flat(a) if to_bool(v) is True) % 2 == 1,
    "MOD": _mod, "ABS": _num1(abs), "INT": _num1(lambda x: float(math.floor(x))), "ROUND": _round,
    "SUM": _agg(sum), "AVERAGE": _agg(_average), "MIN": _agg(lambda n: min(n) if n else 0.0),
    "MAX": _agg(lambda n: max(n) if n else 0.0), "COUNT": _count, "COUNTA": _counta,
    "COUNTIF": _countif, "COUNTBLANK": _countblank,
    "ISBLANK": _is(lambda v: v is None),
    "ISNUMBER": _is(lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)),
    "ISTEXT": _is(lambda v: isinstance(v, str) and not isinstance(v, XlError)),
    "ISNONTEXT": _is(lambda v: not isinstance(v, str) or isinstance(v, XlError)),
    "ISLOGICAL": _is(lambda v: isinstance(v, bool)),
    "ISERROR": _is(lambda v: isinstance(v, XlError)),
    "ISERR": _is(lambda v: isinstance(v, XlError) and v != NA),
    "ISNA": _is(lambda v: v == NA and isinstance(v, XlError)),
    "ISEVEN": _num1(lambda x: math.floor(abs(x)) % 2 == 0), "ISODD": _num1(lambda x: math.floor(abs(x)) % 2 == 1),
    "LEN": _txt1(lambda t: float(len(t))), "TRIM": _txt1(lambda t: " ".join(t.split(" ")).strip() if t else t),
    "UPPER": _txt1(str.upper), "LOWER": _txt1(str.lower), "LEFT": _left, "RIGHT": _right, "MID": _mid,
    "SEARCH": _find(False), "FIND": _find(True),
    "EXACT": lambda a, b: to_text(_scalar(a)) == to_text(_scalar(b)),
    "VALUE": lambda v: to_number(_scalar(v)),
}
_CONTEXT_FUNCTIONS = {"ROW", "COLUMN", "TODAY", "NOW", "WEEKDAY", "YEAR", "MONTH", "DAY"}


def _context_call(name: str, args: list[Compiled], raw: list[str]) -> Compiled:
    """Functions that need the evaluation context (the cell, the date)."""
    if name in ("ROW", "COLUMN"):
        if not args:
            return (lambda ctx: float(ctx.row)) if name == "ROW" else (lambda ctx: float(ctx.col))
        ref = _parse_ref(raw[0].split(":")[0]) if raw and raw[0] else None
        if ref is None:
            raise Unsupported(f"{name} of {raw}")
        row, col, row_abs, col_abs = ref
        if name == "ROW":
            return lambda ctx: float(_shift(row, row_abs, ctx.dr))
        return lambda ctx: float(_shift(col, col_abs, ctx.dc))
    if name in ("TODAY", "NOW"):
        return lambda ctx: date_to_serial(ctx.today, ctx.date1904)
    if name in ("YEAR", "MONTH", "DAY", "WEEKDAY"):
        if not args:
            raise Unsupported(f"{name}()")
        arg = args[0]

        def part(ctx: Context) -> Any:
            n = to_number(_scalar(arg(ctx)))
            if isinstance(n, XlError):
                return n
            if n < 0:
                return NUM
            day = serial_to_date(n, ctx.date1904)
            if name == "YEAR":
                return float(day.year)
            if name == "MONTH":
                return float(day.month)
            if name == "DAY":
                return float(day.day)
            return float((day.isoweekday() % 7) + 1)  # WEEKDAY type 1: Sunday = 1

        return part
    raise Unsupported(name)  # pragma: no cover - _CONTEXT_FUNCTIONS lists the names above


# -- parser ------------------------------------------------------------------------------

_INFIX: dict[str, tuple[int, Callable[[Any, Any], Any]]] = {}


def _arith(fn: Callable[[float, float], float]) -> Callable[[Any, Any], Any]:
    def run(a: Any, b: Any) -> Any:
        x, y = to_number(_scalar(a)), to_number(_scalar(b))
        if (err := _error_in(x, y)) is not None:
            return err
        assert isinstance(x, float) and isinstance(y, float)
        try:
            return fn(x, y)
        except ZeroDivisionError:
            return DIV0
        except (OverflowError, ValueError):
            return NUM

    return run


def _concat(a: Any, b: Any) -> Any:
    x, y = to_text(_scalar(a)), to_text(_scalar(b))
    if (err := _error_in(x, y)) is not None:
        return err
    return str(x) + str(y)


def _comparison(op: str) -> Callable[[Any, Any], Any]:
    def run(a: Any, b: Any) -> Any:
        return compare(_scalar(a), op, _scalar(b))

    return run


for _op in ("=", "<>", "<", ">", "<=", ">="):
    _INFIX[_op] = (1, _comparison(_op))
_INFIX["&"] = (2, _concat)
_INFIX["+"] = (3, _arith(operator.add))
_INFIX["-"] = (3, _arith(operator.sub))
_INFIX["*"] = (4, _arith(operator.mul))
_INFIX["/"] = (4, _arith(operator.truediv))
_INFIX["^"] = (5, _arith(lambda x, y: float(x**y)))
_PREFIX_POWER = 6  # Excel: -2^2 = 4 (negation binds tighter than ^)


def _percent(inner: Compiled) -> Compiled:
    divide = _arith(operator.truediv)
    return lambda ctx: divide(inner(ctx), 100.0)


def _binary(fn: Callable[[Any, Any], Any], lhs: Compiled, rhs: Compiled) -> Compiled:
    return lambda ctx: fn(lhs(ctx), rhs(ctx))


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = [t for t in tokens if t.type != Token.WSPACE]
        self.i = 0

    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> Token:
        tok = self.peek()
        if tok is None:
            raise Unsupported("unexpected end of formula")
        self.i += 1
        return tok

    def expression(self, min_power: int = 0) -> tuple[Compiled, str]:
        left, raw = self.prefix()
        while True:
            tok = self.peek()
            if tok is None:
                break
            if tok.type == Token.OP_POST and tok.value == "%":
                self.take()
                left = _percent(left)
                continue
            if tok.type != Token.OP_IN or tok.value not in _INFIX:
                break
            power, fn = _INFIX[tok.value]
            if power <= min_power:
                break
            self.take()
            right, _raw = self.expression(power)
            left = _binary(fn, left, right)
            raw = ""
        return left, raw

    def prefix(self) -> tuple[Compiled, str]:
        tok = self.take()
        if tok.type == Token.OP_PRE:
            inner, _raw = self.expression(_PREFIX_POWER)
            if tok.value == "-":
                return (lambda ctx: _arith(operator.sub)(0.0, inner(ctx))), ""
            return inner, ""
        if tok.type == Token.OPERAND:
            return self.operand(tok), tok.value
        if tok.type == Token.PAREN and tok.subtype == Token.OPEN:
            inner, _raw = self.expression()
            close = self.take()
            if close.type != Token.PAREN:
                raise Unsupported("unbalanced parentheses")
            return inner, ""
        if tok.type == Token.FUNC and tok.subtype == Token.OPEN:
            return self.call(tok.value[:-1].upper()), ""
        raise Unsupported(f"unexpected token {tok.value!r}")

    def operand(self, tok: Token) -> Compiled:
        value = tok.value
        if tok.subtype == Token.NUMBER:
            n = float(value)
            return lambda ctx: n
        if tok.subtype == Token.TEXT:
            s = value[1:-1].replace('""', '"')
            return lambda ctx: s
        if tok.subtype == Token.LOGICAL:
            b = value.upper() == "TRUE"
            return lambda ctx: b
        if tok.subtype == Token.ERROR:
            e = XlError(value.upper())
            return lambda ctx: e
        if tok.subtype == Token.RANGE:
            return _compile_ref(value)
        raise Unsupported(f"operand {value!r}")

    def call(self, name: str) -> Compiled:
        name = name.removeprefix("_XLFN.").removeprefix("_XLWS.")
        args: list[Compiled] = []
        raw: list[str] = []
        tok = self.peek()
        if tok is not None and tok.type == Token.FUNC and tok.subtype == Token.CLOSE:
            self.take()
        else:
            while True:
                arg, text = self.expression()
                args.append(arg)
                raw.append(text)
                sep = self.take()
                if sep.type == Token.SEP and sep.subtype == Token.ARG:
                    continue
                if sep.type == Token.FUNC and sep.subtype == Token.CLOSE:
                    break
                raise Unsupported(f"unexpected {sep.value!r} in {name}()")
        if name in _CONTEXT_FUNCTIONS:
            return _context_call(name, args, raw)
        fn = FUNCTIONS.get(name)
        if fn is None:
            raise Unsupported(f"function {name}")
        if name == "IF" or name == "IFERROR":
            return self._lazy(fn, args)

        def call(ctx: Context) -> Any:
            try:
                return fn(*(a(ctx) for a in args))
            except TypeError:  # wrong number of arguments: Excel would not accept the rule
                return VALUE

        return call

    @staticmethod
    def _lazy(fn: Callable[..., Any], args: list[Compiled]) -> Compiled:
        def call(ctx: Context) -> Any:
            try:
                return fn(*(a(ctx) for a in args))
            except TypeError:
                return VALUE

        return call


def compile_formula(text: str) -> Compiled | None:
    """A rule formula (with or without the leading ``=``) as a function of a
    :class:`Context`; None when it uses anything not supported (see module docstring)."""
    src = text.strip()
    if not src:
        return None
    try:
        tokens = Tokenizer("=" + src.lstrip("=")).items
        parser = _Parser(tokens)
        fn, _raw = parser.expression()
        if parser.peek() is not None:
            return None  # trailing tokens (a union, an intersection): not supported
    except (Unsupported, ValueError, IndexError, TypeError):
        return None
    return _guard(fn)


def _guard(fn: Compiled) -> Compiled:
    def run(ctx: Context) -> Any:
        try:
            return fn(ctx)
        except Unsupported:
            return VALUE
        except (ArithmeticError, ValueError, TypeError, RecursionError):
            return VALUE

    return run
