"""The layout's one walk per body block (``_body_content``) finds what its three walks
found: the runs outside text boxes, all runs, and the text boxes, each in tree order."""

from __future__ import annotations

from pathlib import Path

import pytest

from artifactcheck import load
from artifactcheck.extractors.docx.layout import _body_content, _of_kind, _runs

REPO = Path(__file__).resolve().parents[2]
FIXTURES = sorted((REPO / "fixtures").rglob("*.docx"))


@pytest.mark.parametrize("path", FIXTURES, ids=[p.name for p in FIXTURES])
def test_one_walk_finds_what_three_found(path: Path) -> None:
    doc = load(path, render=False)
    for top in doc.root.children:
        if top.kind in ("header", "footer", "footnote", "comment"):
            continue
        for deletions in (True, False):
            outside, every, boxes = _body_content(top, deletions=deletions)
            assert [n.id for n in outside] == [n.id for n in _runs(top, skip_textboxes=True, deletions=deletions)]
            assert [n.id for n in every] == [n.id for n in _runs(top, deletions=deletions)]
            assert [n.id for n in boxes] == [n.id for n in _of_kind(top, "textbox")]


def test_the_fixtures_have_text_boxes_to_walk_into() -> None:
    found = [n for p in FIXTURES for n in load(p, render=False).root.iter() if n.kind == "textbox"]
    assert found
