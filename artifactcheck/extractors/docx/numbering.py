"""List numbering: ``w:numPr`` -> ``w:num`` -> ``w:abstractNum`` -> level format and label.

Counters follow what LibreOffice prints (and Word, as far as we have seen): instances
(``w:num``) that share an abstract definition share one list and its counters; an
instance's ``w:startOverride`` sets the shared counter of that level the first time the
instance is used at that level, and later items of any instance continue from there
(A, B, C in one instance, then "D" by an override, then E, F in the first). An item at level L restarts every deeper level (unless that
level's ``w:lvlRestart`` says it restarts only after a higher one, or never: ``0``), even
when levels were skipped in between. A level skipped on the way down (level 0 then level
2) shows its start value in the deeper label ("1.1.1.") and counts as used, so the next
item at the skipped level prints the following number ("1.2."). Labels are computed from
``w:lvlText`` (``%1.%2.``) with the level formats we can spell (decimal, letters, roman,
zero-padded, ordinal words are spelled as decimal); bullets keep their character,
Symbol/Wingdings private-use bullets are mapped to the character they look like. A
level's ``w:pPr`` (its indents and tab stops) is kept for paragraph geometry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from .package import W_NS
from .para_format import geometry_layer

W = f"{{{W_NS}}}"

# Bullets in Symbol/Wingdings are stored as private-use code points.
_PUA_BULLETS: dict[str, str] = {
    "\uf0b7": "\u2022",
    "\uf0a7": "\u25aa",
    "\uf0d8": "\u27a2",
    "\uf0fc": "\u2713",
    "\uf076": "\u2756",
    "\uf0a8": "\u25cb",
    "\uf06f": "o",
    "\uf02d": "-",
}


@dataclass(frozen=True)
class Level:
    """One list level: ``fmt`` (``w:numFmt``), ``text`` (``w:lvlText``), ``start``,
    ``restart`` (``w:lvlRestart``: None = after any higher level, 0 = never, n = only
    after levels 0..n-1), ``is_legal`` and ``ppr`` (the level's geometry layer)."""

    fmt: str
    text: str
    start: int
    is_legal: bool = False
    restart: int | None = None
    ppr: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass
class ListInfo:
    """What a paragraph's numbering resolves to: 0-based ``level``, ``ordered`` (False
    for bullets and ``none``), the ``format`` name and the computed ``label``."""

    num_id: str
    level: int
    ordered: bool
    format: str
    label: str


@dataclass
class Numbering:
    abstract: dict[str, dict[int, Level]] = field(default_factory=dict)
    nums: dict[str, str] = field(default_factory=dict)  # numId -> abstractNumId
    overrides: dict[str, dict[int, Level]] = field(default_factory=dict)
    start_overrides: dict[str, dict[int, int]] = field(default_factory=dict)
    style_links: dict[str, str] = field(default_factory=dict)  # abstractNumId -> numStyleLink style
    _counters: dict[str, dict[int, int]] = field(default_factory=dict)
    _started: set[tuple[str, int]] = field(default_factory=set)
    _overridden: set[tuple[str, int]] = field(default_factory=set)  # (numId, level) applied

    @classmethod
    def parse(cls, root: etree._Element | None) -> Numbering:
        n = cls()
        if root is None:
            return n
        for absn in root.iter(f"{W}abstractNum"):
            aid = absn.get(f"{W}abstractNumId") or ""
            n.abstract[aid] = {
                lvl_i: lvl for lvl_i, lvl in (_level(el) for el in absn.findall(f"{W}lvl"))
            }
            link = absn.find(f"{W}numStyleLink")
            if link is not None and link.get(f"{W}val"):
                n.style_links[aid] = link.get(f"{W}val", "")
        for num in root.iter(f"{W}num"):
            nid = num.get(f"{W}numId") or ""
            aref = num.find(f"{W}abstractNumId")
            n.nums[nid] = aref.get(f"{W}val", "") if aref is not None else ""
            for ov in num.findall(f"{W}lvlOverride"):
                try:
                    ilvl = int(ov.get(f"{W}ilvl", "0"))
                except ValueError:
                    continue
                so = ov.find(f"{W}startOverride")
                if so is not None:
                    try:
                        n.start_overrides.setdefault(nid, {})[ilvl] = int(so.get(f"{W}val", "1"))
                    except ValueError:
                        pass
                lvl_el = ov.find(f"{W}lvl")
                if lvl_el is not None:
                    _, lvl = _level(lvl_el)
                    n.overrides.setdefault(nid, {})[ilvl] = lvl
        return n

    def levels(self, num_id: str, style_num_id: dict[str, str] | None = None) -> dict[int, Level]:
        aid = self.nums.get(num_id)
        if aid is None:
            return {}
        levels = dict(self.abstract.get(aid, {}))
        if not levels and aid in self.style_links and style_num_id:
            # numStyleLink: the list's levels live in the abstractNum of the style's num
            linked = style_num_id.get(self.style_links[aid])
            if linked and linked != num_id:
                levels = dict(self.abstract.get(self.nums.get(linked, ""), {}))
        levels.update(self.overrides.get(num_id, {}))
        return levels

    def level(
        self, num_id: str | None, ilvl: int, *, style_num_id: dict[str, str] | None = None
    ) -> Level | None:
        """The level definition a paragraph at (``num_id``, ``ilvl``) uses, without
        advancing any counter; None when it is not a list item."""
        if not num_id or num_id == "0" or num_id not in self.nums:
            return None
        return self.levels(num_id, style_num_id).get(max(0, min(ilvl, 8)))

    def next_label(
        self, num_id: str | None, ilvl: int, *, style_num_id: dict[str, str] | None = None
    ) -> ListInfo | None:
        """Advance the counters for a paragraph at (``num_id``, ``ilvl``) and return its
        list information; None when the paragraph is not a list item (numId 0/unknown)."""
        if not num_id or num_id == "0" or num_id not in self.nums:
            return None
        levels = self.levels(num_id, style_num_id)
        ilvl = max(0, min(ilvl, 8))
        lvl = levels.get(ilvl) or Level(fmt="decimal", text=f"%{ilvl + 1}.", start=1)
        restarts = self.start_overrides.get(num_id, {})
        key = f"a{self.nums[num_id]}"
        counters = self._counters.setdefault(key, {})
        if ilvl in restarts and (num_id, ilvl) not in self._overridden:
            self._overridden.add((num_id, ilvl))
            self._started.add((key, ilvl))
            counters[ilvl] = restarts[ilvl]
        elif (key, ilvl) not in self._started:
            self._started.add((key, ilvl))
            counters[ilvl] = lvl.start
        else:
            counters[ilvl] = counters.get(ilvl, lvl.start - 1) + 1
        for deeper in range(ilvl + 1, 9):
            below = levels.get(deeper)
            restart = below.restart if below is not None else None
            if restart is None or (restart != 0 and ilvl < restart):
                self._started.discard((key, deeper))
        for upper in range(ilvl):
            if (key, upper) not in self._started:
                # a skipped level prints its start value and counts as used from here on
                up = levels.get(upper)
                counters[upper] = up.start if up else 1
                self._started.add((key, upper))
        label = _render_text(lvl, levels, counters, ilvl)
        return ListInfo(
            num_id=num_id,
            level=ilvl,
            ordered=lvl.fmt not in ("bullet", "none"),
            format=lvl.fmt,
            label=label,
        )


def _level(el: etree._Element) -> tuple[int, Level]:
    try:
        ilvl = int(el.get(f"{W}ilvl", "0"))
    except ValueError:
        ilvl = 0
    fmt_el = el.find(f"{W}numFmt")
    text_el = el.find(f"{W}lvlText")
    start_el = el.find(f"{W}start")
    try:
        start = int(start_el.get(f"{W}val", "1")) if start_el is not None else 1
    except ValueError:
        start = 1
    fmt = fmt_el.get(f"{W}val", "decimal") if fmt_el is not None else "decimal"
    text = text_el.get(f"{W}val", "") if text_el is not None else ""
    restart_el = el.find(f"{W}lvlRestart")
    restart: int | None = None
    if restart_el is not None:
        try:
            restart = max(0, int(restart_el.get(f"{W}val", "")))
        except ValueError:
            restart = None
    return ilvl, Level(
        fmt=fmt,
        text=text,
        start=start,
        is_legal=el.find(f"{W}isLgl") is not None,
        restart=restart,
        ppr=geometry_layer(el.find(f"{W}pPr")),
    )


def _render_text(lvl: Level, levels: dict[int, Level], counters: dict[int, int], ilvl: int) -> str:
    if lvl.fmt == "bullet":
        return "".join(_PUA_BULLETS.get(ch, ch) for ch in lvl.text)
    if lvl.fmt == "none":
        return ""
    out = lvl.text
    for i in range(ilvl + 1):
        token = f"%{i + 1}"
        if token in out:
            fmt = (
                "decimal"
                if lvl.is_legal and i < ilvl
                else (levels[i].fmt if i in levels else "decimal")
            )
            out = out.replace(token, format_number(counters.get(i, 1), fmt))
    return out


def format_number(n: int, fmt: str) -> str:
    """A counter value in a ``w:numFmt`` format (unknown formats fall back to decimal)."""
    if fmt in ("lowerLetter", "upperLetter"):
        s = _letters(n)
        return s if fmt == "lowerLetter" else s.upper()
    if fmt in ("lowerRoman", "upperRoman"):
        s = _roman(n)
        return s if fmt == "upperRoman" else s.lower()
    if fmt == "decimalZero":
        return f"{n:02d}"
    if (
        fmt
        in (
            "chineseCounting",
            "chineseCountingThousand",
            "ideographTraditional",
            "japaneseCounting",
        )
        and 0 < n < 100
    ):
        return (
            _chinese(n) if fmt != "ideographTraditional" else "甲乙丙丁戊己庚辛壬癸"[(n - 1) % 10]
        )
    if fmt == "decimalEnclosedCircle" and 0 < n <= 20:
        return chr(0x2460 + n - 1)
    if fmt == "decimalFullWidth":
        return "".join(chr(0xFF10 + int(d)) for d in str(n))
    if fmt == "ordinal":
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"
    return str(n)


def _chinese(n: int) -> str:
    """1-99 in Chinese counting numerals (十一, 二十, 九十九)."""
    digits = "〇一二三四五六七八九"
    tens, ones = divmod(n, 10)
    if tens == 0:
        return digits[ones]
    return (digits[tens] if tens > 1 else "") + "十" + (digits[ones] if ones else "")


_MAX_LETTER_REPEAT = 100  # a counter from the file must not make a 10**12-letter label


def _letters(n: int) -> str:
    # Word repeats the letter: 27 -> "aa", 28 -> "bb"
    if n <= 0 or (n - 1) // 26 >= _MAX_LETTER_REPEAT:
        return str(n)
    return chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)


def _roman(n: int) -> str:
    if n <= 0 or n >= 4000:
        return str(n)
    out = []
    for value, sym in (
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        while n >= value:
            out.append(sym)
            n -= value
    return "".join(out)
