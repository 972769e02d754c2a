"""``load()`` documents every option it takes and refuses a name it does not know
(a misspelt ``rendr=False`` used to be ignored: the document was rendered anyway)."""

from __future__ import annotations

import pytest

from artifactcheck import load
from artifactcheck.loading import LOAD_OPTIONS
from tests.conftest import FIXTURES


def test_every_option_is_documented_in_load() -> None:
    doc = load.__doc__ or ""
    for name in LOAD_OPTIONS:
        assert f"``{name}``" in doc, name


def test_a_misspelt_option_is_refused_with_the_nearest_name() -> None:
    with pytest.raises(TypeError, match="unknown option 'rendr'; did you mean 'render'"):
        load(FIXTURES / "docx" / "tree_features.docx", rendr=False)
    with pytest.raises(TypeError, match="unknown option 'colour'; options: render, timeout"):
        load(FIXTURES / "docx" / "tree_features.docx", colour=True)


def test_options_for_other_formats_are_ignored() -> None:
    doc = load(FIXTURES / "xlsx" / "geometry.xlsx", render=False, ocr=False, day_first=True)
    assert doc.artifact.format == "xlsx"


def test_score_refuses_a_misspelt_load_option_instead_of_failing_every_step() -> None:
    from artifactcheck import score

    with pytest.raises(TypeError, match="did you mean 'render'"):
        score(FIXTURES / "tasks" / "formal_letter" / "pass.docx", FIXTURES / "tasks" / "formal_letter" / "rubric.yaml", load_options={"rendr": False})
