"""Small pure pieces of the .docx extractor: number formats, heading levels, VML lengths."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from artifactcheck.extractors.docx.body import heading_level
from artifactcheck.extractors.docx.drawing import css_length_pt, vml_size
from artifactcheck.extractors.docx.numbering import format_number


@pytest.mark.parametrize(
    ("n", "fmt", "label"),
    [
        (1, "decimal", "1"),
        (4, "lowerLetter", "d"),
        (27, "lowerLetter", "aa"),  # Word doubles the letter after z
        (3, "upperLetter", "C"),
        (14, "upperRoman", "XIV"),
        (9, "lowerRoman", "ix"),
        (7, "decimalZero", "07"),
        (2, "ordinal", "2nd"),
        (11, "ordinal", "11th"),
        (21, "chineseCountingThousand", "二十一"),
        (3, "decimalEnclosedCircle", "\u2462"),
        (5, "someFutureFormat", "5"),
    ],
)
def test_number_formats(n: int, fmt: str, label: str) -> None:
    assert format_number(n, fmt) == label


@given(st.integers(min_value=1, max_value=3999))
def test_roman_round_trip(n: int) -> None:
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    s = format_number(n, "upperRoman")
    total = 0
    for a, b in zip(s, s[1:] + " "):
        total += -values[a] if b != " " and values[b] > values[a] else values[a]
    assert total == n


@pytest.mark.parametrize(
    ("style", "outline", "level"),
    [("Heading 2", None, 2), ("heading 9", None, 9), ("Heading2", None, 2), ("Title", None, 0),
     ("Normal", 0, 1), ("Normal", 9, None), ("Normal", None, None), (None, 3, 4)],
)  # fmt: skip
def test_heading_level(style: str | None, outline: int | None, level: int | None) -> None:
    assert heading_level(style, outline) == level


def test_vml_lengths() -> None:
    assert css_length_pt("1in") == 72 and css_length_pt("2.54cm") == pytest.approx(72)
    assert css_length_pt("96px") == 72 and css_length_pt("12700") == 1  # unitless = EMU
    size = vml_size("position:absolute;margin-left:10pt;margin-top:5pt;width:100pt;height:50pt")
    assert size == {
        "placement": "floating",
        "position_h_offset": 10,
        "position_v_offset": 5,
        "width": 100,
        "height": 50,
    }
