"""Normalisers shared by the text, formatting and trace checks: text, numbers, dates, URLs.

Each function is pure and total on strings: a value that cannot be read returns None
(numbers, dates) rather than raising, so a check can say "could not read '12 apples' as a
number" in its evidence instead of crashing. See design/checks-text-color.md for why each
rule exists.
"""

from __future__ import annotations

import datetime as _dt
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit

# -- text ---------------------------------------------------------------------------------

# Typographic characters an editor substitutes while typing (smart quotes, dashes,
# ellipsis, odd spaces). NFKC leaves most of them alone, so they are mapped explicitly.
TYPOGRAPHY = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u00b4": "'",
        "\u0060": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2015": "-",
        "\u2212": "-",
        "\ufe58": "-",
        "\ufe63": "-",
        "\uff0d": "-",
        "\u2026": "...",
        "\u00a0": " ",
        "\u2007": " ",
        "\u202f": " ",
        "\u3000": " ",
        "\t": " ",
        "\u00ad": None,
        "\u200b": None,
        "\u200c": None,
        "\u200d": None,
        "\u2060": None,
        "\ufeff": None,
    }
)
_SPACES = re.compile(r"\s+")


@lru_cache(maxsize=65536)
def normalize_text(
    text: str,
    *,
    case_sensitive: bool = False,
    collapse_whitespace: bool = True,
    unicode_forms: bool = True,
    typography: bool = True,
) -> str:
    """Text reduced to what a reader sees as "the same words".

    ``unicode_forms``: NFKC (full-width letters, ligatures, composed accents);
    ``typography``: smart quotes -> ASCII quotes, en/em dashes and minus -> ``-``, ellipsis
    -> ``...``, non-breaking and zero-width spaces; ``collapse_whitespace``: runs of
    whitespace become one space and the ends are stripped; ``case_sensitive=False``:
    Unicode case folding (``ß`` == ``ss``).

    >>> normalize_text("  \u201cSmart\u201d \u2014 quotes\u00a0 ")
    '"smart" - quotes'
    >>> normalize_text("\ufb01le", case_sensitive=True)
    'file'
    """
    if unicode_forms:
        text = unicodedata.normalize("NFKC", text)
    if typography:
        text = text.translate(TYPOGRAPHY)
    if collapse_whitespace:
        text = _SPACES.sub(" ", text).strip()
    if not case_sensitive:
        text = text.casefold()
    return text


# -- numbers ------------------------------------------------------------------------------

_CURRENCY = "$€£¥₹₩₽₺₪₫฿₴₦₱"
_NUMBER = re.compile(
    r"""^(?P<sign>[-+])?
        (?P<cur1>[A-Z]{3}\s?|["""
    + _CURRENCY
    + r"""]\s?)?
        (?P<sign2>[-+])?
        (?P<num>(\d{1,3}(?:[,\u202f\u00a0 ']\d{3})+|\d+)(?:\.\d+)?|\.\d+)
        (?P<exp>[eE][-+]?\d+)?
        \s?(?P<suffix>%|[kKmMbB]\b|bn\b|[A-Z]{3}|["""
    + _CURRENCY
    + r"""])?$""",
    re.VERBOSE,
)
_SCALE = {"k": 1e3, "m": 1e6, "b": 1e9, "bn": 1e9}


@dataclass(frozen=True)
class ParsedNumber:
    """A number read from displayed text. ``value`` is as written (``12%`` -> 12.0,
    ``percent=True``); ``fraction`` gives 0.12 for a percentage."""

    value: float
    percent: bool = False
    currency: str | None = None

    @property
    def fraction(self) -> float:
        return self.value / 100.0 if self.percent else self.value


@lru_cache(maxsize=4096)
def parse_number(text: str) -> ParsedNumber | None:
    """Read one number from displayed text, or None when the text is not one number.

    Handles currency symbols and codes, thousands separators (``,``, thin and
    non-breaking spaces, ``'``), accounting negatives ``(3.2)``, Unicode minus, a
    trailing ``%`` and the scale suffixes k/M/B/bn. Decimal commas (``1.234,5``) are not
    guessed: ``1,234`` is one thousand two hundred thirty-four, as in English locales.

    >>> parse_number("$1,234.50").value
    1234.5
    >>> parse_number("(3.2)").value
    -3.2
    >>> p = parse_number("12%"); (p.value, p.percent, p.fraction)
    (12.0, True, 0.12)
    >>> parse_number("twelve") is None
    True
    """
    s = normalize_text(text, case_sensitive=True)
    negative = False
    if s.startswith("(") and s.endswith(")"):
        negative, s = True, s[1:-1].strip()
    if s.endswith("-") and not s.startswith("-"):  # "123-" accounting style
        negative, s = True, s[:-1].strip()
    m = _NUMBER.match(s)
    if m is None:
        return None
    digits = re.sub(r"[,\u202f\u00a0 ']", "", m.group("num")) + (m.group("exp") or "")
    try:
        value = float(digits)
    except ValueError:  # pragma: no cover - the regex admits only float syntax
        return None
    if "-" in (m.group("sign") or "", m.group("sign2") or ""):
        negative = not negative
    suffix = m.group("suffix") or ""
    percent = suffix == "%"
    currency = (m.group("cur1") or "").strip() or None
    if suffix.lower() in _SCALE:
        value *= _SCALE[suffix.lower()]
    elif suffix and not percent:
        currency = suffix
    return ParsedNumber(-value if negative else value, percent, currency)


def numbers_close(actual: float, expected: float, *, abs_tol: float, rel_tol: float) -> bool:
    """``|actual - expected| <= max(abs_tol, rel_tol * |expected|)`` (relative to the
    expected value, not symmetric like math.isclose: the rubric states the truth)."""
    return abs(actual - expected) <= max(abs_tol, rel_tol * abs(expected))


# -- dates --------------------------------------------------------------------------------

_EXCEL_EPOCH = _dt.date(1899, 12, 30)


@lru_cache(maxsize=4096)
def parse_date(text: str, *, dayfirst: bool = False) -> _dt.date | None:
    """A calendar date read from text with python-dateutil, or None.

    Accepts ISO (``2024-03-05``), ``March 5, 2024``, ``5 Mar 2024``, ``03/05/2024``
    (month first unless ``dayfirst``) and timestamps (the time is dropped). Text without
    a day, month and year all present is rejected rather than completed with today's
    values, which dateutil would otherwise do silently.

    >>> parse_date("March 5, 2024")
    datetime.date(2024, 3, 5)
    >>> parse_date("05/03/2024", dayfirst=True)
    datetime.date(2024, 3, 5)
    >>> parse_date("March 2024") is None
    True
    """
    from dateutil import parser  # type: ignore[import-untyped]  # no stubs shipped

    s = normalize_text(text, case_sensitive=True)
    if not s or not re.search(r"\d", s):
        return None
    # Two different sentinel defaults: a field missing from the text shows up as a
    # difference between the two parses.
    try:
        a = parser.parse(s, dayfirst=dayfirst, default=_dt.datetime(1901, 1, 1))
        b = parser.parse(s, dayfirst=dayfirst, default=_dt.datetime(1902, 2, 2))
    except (ValueError, OverflowError, parser.ParserError):
        return None
    if a != b:
        return None
    day: _dt.date = a.date()
    return day


def excel_serial_to_date(serial: float) -> _dt.date:
    """An Excel/Sheets date serial (days since 1899-12-30, the 1900 system) to a date."""
    return _EXCEL_EPOCH + _dt.timedelta(days=int(serial))


# -- URLs ---------------------------------------------------------------------------------

TRACKING_PARAMS: frozenset[str] = frozenset(
    {
        "fbclid",
        "gclid",
        "dclid",
        "gbraid",
        "wbraid",
        "msclkid",
        "mc_cid",
        "mc_eid",
        "igshid",
        "yclid",
        "_ga",
        "_gl",
        "ref_src",
        "spm",
    }
)
_DEFAULT_PORTS = {"http": "80", "https": "443"}


@lru_cache(maxsize=8192)
def normalize_url(
    url: str,
    *,
    keep_scheme: bool = False,
    keep_www: bool = False,
    keep_fragment: bool = False,
    keep_tracking: bool = False,
) -> str:
    """A URL reduced to what identifies the page, for comparing links with visits.

    Drops the scheme (``http`` == ``https``), a leading ``www.``, the default port,
    the fragment, tracking parameters (``utm_*``, ``fbclid``, ``gclid``, ...) and a
    trailing slash; lower-cases the host; sorts the remaining query parameters; decodes
    then re-encodes the path so ``%7E`` == ``~``. A string without a scheme is read as
    ``http://`` + string. Each ``keep_*`` flag turns one rule off.

    >>> normalize_url("https://www.Example.com/a/b/?utm_source=x&b=2&a=1#top")
    'example.com/a/b?a=1&b=2'
    >>> normalize_url("example.com") == normalize_url("http://example.com/")
    True
    """
    raw = url.strip()
    if not re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", raw):
        if re.match(r"^(mailto|tel|data|javascript):", raw, re.IGNORECASE):
            return raw.lower() if raw.lower().startswith(("mailto:", "tel:")) else raw
        raw = "http://" + raw.lstrip("/")
    try:
        parts = urlsplit(raw)
        host = (parts.hostname or "").lower().rstrip(".")
        port = parts.port
    except ValueError:  # an unparseable port or IPv6 literal: compare the text as is
        return url.strip()
    scheme = parts.scheme.lower()
    if not keep_www and host.startswith("www."):
        host = host[4:]
    netloc = host
    if port is not None and str(port) != _DEFAULT_PORTS.get(scheme):
        netloc += f":{port}"
    path = quote(unquote(parts.path), safe="/:@!$&'()*+,;=-._~")
    if path.endswith("/"):
        path = path.rstrip("/")
    query = [
        (k, v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if keep_tracking or not (k.lower().startswith("utm_") or k.lower() in TRACKING_PARAMS)
    ]
    out = netloc + path
    if query:
        out += "?" + urlencode(sorted(query))
    if keep_fragment and parts.fragment:
        out += "#" + parts.fragment
    if keep_scheme:
        out = f"{scheme}://{out}"
    return out


_URL_IN_TEXT = re.compile(r"""(?i)\b(?:https?://|www\.)[^\s<>"'\]\[)(]+""")


def urls_in_text(text: str) -> list[str]:
    """Bare URLs written in text (``http(s)://...`` or ``www....``), trailing
    punctuation removed.

    >>> urls_in_text("See https://example.org/a, and www.test.com.")
    ['https://example.org/a', 'www.test.com']
    """
    return [m.group(0).rstrip(".,;:!?") for m in _URL_IN_TEXT.finditer(text)]


# -- short labels (headings, column headers) ----------------------------------------------

_NUMBER_WORD = re.compile(r"\d+(?:[.,]\d+)?")
_PUNCT = re.compile(r"[^\w\s]+")


_WORD_CLOSE = 80.0  # rapidfuzz ratio at which two words are one word mistyped


def label_similarity(expected: str, actual: str) -> float:
    """How well a short label (a heading, a column header) matches the expected text,
    0-100: rapidfuzz ``token_set_ratio`` on normalised text (word order, extra words of the
    actual label such as "Module 1: Basics" for "module 1", and punctuation do not matter;
    extra words of the expected one do), but 0 when a number of the
    expected text is missing from the actual one -- numbers are what tell "Module 1" from
    "Module 2" and "Sales 2023" from "Sales 2024", and edit-distance scores barely see them.

    >>> label_similarity("module 1", "Module 1: Basics")
    100.0
    >>> label_similarity("Module 2", "Module 1: Basics"), label_similarity("Sales 2024", "sales 2023")
    (0.0, 0.0)
    >>> label_similarity("Revnue", "Revenue") > 90, label_similarity("Max score", "Score") < 80
    (True, True)
    """
    from rapidfuzz import fuzz

    e, a = normalize_text(expected), normalize_text(actual)
    if not set(_NUMBER_WORD.findall(e)) <= set(_NUMBER_WORD.findall(a)):
        return 0.0
    # punctuation is not a word: "Module 1:" has the word "1"
    e, a = _PUNCT.sub(" ", e), _PUNCT.sub(" ", a)
    score = float(fuzz.token_set_ratio(e, a))
    # token_set_ratio is 100 when either side's words are a subset of the other's: the
    # actual label may have extra words, the expected one may not ("Max score" is not the
    # column "Score", "Department name" not "Name"). A word of the expected text with no
    # close word in the actual one (a typo is close) makes it a whole-string comparison.
    actual_words = a.split()
    if any(all(fuzz.ratio(w, x) < _WORD_CLOSE for x in actual_words) for w in e.split()):
        score = min(score, float(fuzz.token_sort_ratio(e, a)))
    return score
