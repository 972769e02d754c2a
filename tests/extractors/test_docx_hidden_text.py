"""Hidden text (``w:vanish``) as python-docx writes it (``run.font.hidden = True``): Word
and LibreOffice neither show nor print it. The truth is the rendered page's text."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf

pytestmark = pytest.mark.slow


def test_hidden_text_is_not_read_as_shown(tmp_path: Path) -> None:
    d = docx.Document()
    p = d.add_paragraph("The answer stays visible ")
    p.add_run("SECRETNOTE ").font.hidden = True
    p.add_run("after the hidden word.")
    path = tmp_path / "hidden.docx"
    d.save(str(path))
    printed = " ".join(w.text for w in read_layout(render_pdf(path).pdf_path).words)
    assert "SECRETNOTE" not in printed and "visible after" in printed
    doc = load(path)
    assert run_check("text_excludes", doc, {"phrases": ["SECRETNOTE"]}).status == "pass"
    assert run_check("text_contains", doc, {"phrases": ["visible after the hidden word"]}).status == "pass"
    hidden = next(r for r in doc.select("run") if r.attrs.get("hidden"))
    assert hidden.text == "" and hidden.attrs["hidden_text"] == "SECRETNOTE "  # kept for evidence
