"""Text widths from real font files (fontTools) through metric-compatible twins."""

from __future__ import annotations

import pytest

from artifactcheck.extractors.fonts.metrics import (
    em_measurer,
    line_height_pt,
    max_digit_width_px,
    measure_text,
    resolve_font,
    text_width_pt,
)


@pytest.mark.parametrize(
    ("office", "twin"),
    [("Calibri", "Carlito"), ("Cambria", "Caladea"), ("Arial", "Liberation Sans"),
     ("Times New Roman", "Liberation Serif"), ("Courier New", "Liberation Mono")],
)
def test_office_fonts_map_to_metric_twins(office: str, twin: str) -> None:
    face = resolve_font(office)
    assert face.family == twin
    assert not face.substituted and not face.fallback


def test_unknown_family_falls_back_and_says_so() -> None:
    face = resolve_font("No Such Font 1234")
    assert face.substituted
    assert face.fallback and face.family == "DejaVu Sans"


def test_excel_max_digit_widths() -> None:
    # Excel's documented defaults: Calibri 11 and Arial 10 both have a 7 px digit.
    assert max_digit_width_px("Calibri", 11) == 7
    assert max_digit_width_px("Arial", 10) == 7
    assert max_digit_width_px("Calibri", 22) == 15


def test_widths_scale_with_size_and_bold_is_wider() -> None:
    w11 = text_width_pt("Hello world", "Calibri", 11)
    assert text_width_pt("Hello world", "Calibri", 22) == pytest.approx(2 * w11)
    assert text_width_pt("Hello world", "Calibri", 11, bold=True) > w11
    # Courier New is monospaced: 0.6 em per character.
    assert text_width_pt("iiii", "Courier New", 10) == pytest.approx(4 * 6.0, abs=0.01)
    assert text_width_pt("", "Calibri", 11) == 0


def test_missing_glyphs_are_estimated_and_counted() -> None:
    m = measure_text("日本", "Calibri", 10)
    assert m.missing == 2
    assert m.width_pt == pytest.approx(20.0)  # wide characters count as 1 em


def test_long_strings_are_measured_on_a_prefix() -> None:
    text = "abc" * 10_000
    m = measure_text(text, "Calibri", 11)
    assert m.estimated
    assert m.width_pt == pytest.approx(10_000 * text_width_pt("abc", "Calibri", 11), rel=1e-3)


def test_em_measurer_agrees_with_measure_text() -> None:
    measure = em_measurer("Arial", bold=True)[1]
    em, missing = measure("Quarterly Report")
    assert em * 12 == pytest.approx(text_width_pt("Quarterly Report", "Arial", 12, bold=True))
    assert missing == 0


def test_line_height() -> None:
    # Carlito's winAscent + winDescent = 2500 / 2048 em.
    assert line_height_pt("Calibri", 11) == pytest.approx(11 * 2500 / 2048)


def test_aptos_narrow_uses_an_approximate_twin_with_excels_digit_width() -> None:
    face = resolve_font("Aptos Narrow")
    assert face.family == "Carlito" and face.substituted and not face.fallback
    assert max_digit_width_px("Aptos Narrow", 11) == 7


def test_dejavu_requested_is_not_a_fallback() -> None:
    face = resolve_font("DejaVu Sans")
    assert not face.substituted and not face.fallback
