"""Equations in a .docx: OMML and legacy OLE equation objects (Equation Editor 3, MathType)
are both found by one selector, ``[equation]``, told apart by ``equation_format`` (and
``ole_prog_id``). The files are built as agents build them (python-docx + injected XML,
tests/extractors/docx_equations.py); what LibreOffice draws decides which node has a box."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import artifactcheck
from artifactcheck.extractors.render import page_image, render_pdf
from artifactcheck.model import Document
from tests.extractors.docx_equations import PREVIEW_RGB, build_equations_docx

DPI = 150


def _load(tmp_path: Path, name: str, **kw: object) -> tuple[Path, Document]:
    path = build_equations_docx(tmp_path / f"{name}.docx", **kw)  # type: ignore[arg-type]
    return path, artifactcheck.load(path, render=False)


def test_one_selector_finds_omml_and_ole_equations(tmp_path: Path) -> None:
    _, doc = _load(tmp_path, "both")
    found = doc.select("[equation]")
    assert sorted((n.kind, n.attrs["equation_format"]) for n in found) == [("image", "ole"), ("run", "omml")]
    (ole,) = doc.select("image[equation]")
    assert ole.attrs["ole_prog_id"] == "Equation.3" and ole.attrs["ole"] is True
    (omml,) = doc.select('run[equation_format="omml"]')
    assert omml.text == "ab=c" and omml.attrs["math"] is True


@pytest.mark.parametrize("prog_id", ["Equation.3", "Equation.DSMT4", "Equation.DSMT36"])
def test_legacy_equation_objects_are_equations(tmp_path: Path, prog_id: str) -> None:
    _, doc = _load(tmp_path, "ole", ole_prog_id=prog_id, omml=False)
    (eq,) = doc.select("[equation]")
    assert eq.kind == "image" and eq.attrs["ole_prog_id"] == prog_id and eq.attrs["blob"] in doc.blobs


def test_other_embedded_objects_are_not_equations(tmp_path: Path) -> None:
    _, doc = _load(tmp_path, "excel", ole_prog_id="Excel.Sheet.12", omml=False)
    assert doc.select("[equation]") == []
    (obj,) = doc.select("image[ole]")
    assert obj.attrs["ole_prog_id"] == "Excel.Sheet.12"


@pytest.mark.parametrize(
    ("kw", "expected"),
    [({"omml": False}, "pass"), ({"ole_prog_id": None}, "pass"), ({"ole_prog_id": "Excel.Sheet.12", "omml": False}, "fail")],
    ids=["ole-only", "omml-only", "no-equation"],
)
def test_exists_equation_step(tmp_path: Path, kw: dict[str, object], expected: str) -> None:
    _, doc = _load(tmp_path, "step", **kw)
    assert artifactcheck.run_check("exists", doc, {"target": "[equation]"}).status == expected


def _preview_pixels(path: Path) -> tuple[float, float, float, float] | None:
    """Bounds in points of the preview colour on page 0 of the render, or None."""
    arr = np.asarray(page_image(render_pdf(path).pdf_path, 0, dpi=DPI)).astype(int)
    near = (np.abs(arr - np.array(PREVIEW_RGB)).sum(axis=2) < 30)
    if not near.any():
        return None
    ys, xs = np.nonzero(near)
    k = 72.0 / DPI
    return xs.min() * k, ys.min() * k, (xs.max() + 1) * k, (ys.max() + 1) * k


@pytest.mark.slow
@pytest.mark.parametrize("prog_id", ["Equation.DSMT4", "Equation.3"])
def test_ole_equation_box_is_where_the_render_draws_it(tmp_path: Path, prog_id: str) -> None:
    path = build_equations_docx(tmp_path / "render.docx", ole_prog_id=prog_id)
    doc = artifactcheck.load(path, render=True)
    (eq,) = doc.select("image[equation]")
    drawn = _preview_pixels(path)
    if prog_id == "Equation.DSMT4":
        assert drawn is not None, "LibreOffice draws a MathType object's preview picture"
    if drawn is None:
        # LibreOffice imports Equation Editor 3 objects as formulas and draws no preview
        assert eq.boxes == [] and eq.attrs["rendered"] is False
        assert "Equation Editor 3" in str(eq.attrs["not_rendered_reason"])
    else:
        (box,) = eq.boxes
        assert box.page == 0 and box.origin == "layout"
        for ours, render in zip((box.x0, box.top, box.x1, box.bottom), drawn, strict=True):
            assert abs(ours - render) <= 1.5
    text = [p for p in doc.select("paragraph") if p.text.startswith("The ")]
    assert all(p.boxes for p in text)


def _ink_lines(path: Path) -> list[tuple[float, float, float, float]]:
    """Bounds in points of each band of inked rows on page 0 of the render (a text line,
    or a display formula with its fraction), top to bottom: what a reader sees, read off
    the pixels, not from our layout."""
    arr = np.asarray(page_image(render_pdf(path).pdf_path, 0, dpi=DPI).convert("L"))
    ink = arr < 160
    rows = np.flatnonzero(ink.any(axis=1))
    bands: list[tuple[int, int]] = []
    for r in rows.tolist():
        if bands and r - bands[-1][1] <= 2:  # a gap of 1-2 px rows: the same band
            bands[-1] = (bands[-1][0], r)
        else:
            bands.append((r, r))
    k = 72.0 / DPI
    out = []
    for top, bottom in bands:
        xs = np.flatnonzero(ink[top : bottom + 1].any(axis=0))
        out.append((xs.min() * k, top * k, (xs.max() + 1) * k, (bottom + 1) * k))
    return out


def test_an_omml_formula_has_the_box_the_render_draws_it_in(tmp_path: Path) -> None:
    """LibreOffice's Math draws a/b=c with a text layer ("a", "b", "=c"): the formula run
    gets their box, and the paragraph after it keeps only its own line (left unclaimed,
    the formula's characters were taken by the next paragraph's first letters)."""
    path = build_equations_docx(tmp_path / "omml.docx", ole_prog_id=None)
    doc = artifactcheck.load(path, render=True)
    (omml,) = doc.select('run[equation_format="omml"]')
    (box,) = omml.boxes
    before, formula, after = _ink_lines(path)
    assert box.page == 0 and omml.attrs.get("rendered") is not False
    # the glyphs' ink inside the box (the fraction bar is a path, up to ~2 pt wider)
    assert box.x0 - 2.5 <= formula[0] and formula[2] <= box.x1 + 2.5
    assert box.top - 1.5 <= formula[1] and formula[3] <= box.bottom + 1.5
    (after_para,) = [p for p in doc.select("paragraph") if p.text.startswith("The proof")]
    (after_box,) = after_para.boxes
    assert after_box.top >= formula[3] - 0.5  # below the formula's ink, on its own line
    assert abs(after_box.top - after[1]) <= 4 and abs(after_box.x0 - after[0]) <= 1.5
    assert before[3] <= box.top + 0.5
