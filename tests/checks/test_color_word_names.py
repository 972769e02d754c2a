"""Colour names as Word and python-docx spell them. An agent highlights with
``WD_COLOR_INDEX.TURQUOISE`` and the task says "highlighted in turquoise": the name must
mean the colour Word's menu shows under it (#00ffff), not CSS turquoise (#40e0d0). The
truth is the fill LibreOffice draws under each run, read off the page image."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from docx.enum.text import WD_COLOR_INDEX

from artifactcheck import load, run_check
from artifactcheck.checks.color import resolve_color
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import background, same_color

pytestmark = pytest.mark.slow

# python-docx's name -> the name a task author writes (Word's highlight menu)
MENU_NAMES = {
    WD_COLOR_INDEX.BRIGHT_GREEN: "bright green",
    WD_COLOR_INDEX.TURQUOISE: "turquoise",
    WD_COLOR_INDEX.PINK: "pink",
    WD_COLOR_INDEX.TEAL: "teal",
    WD_COLOR_INDEX.VIOLET: "violet",
    WD_COLOR_INDEX.GRAY_25: "gray-25%",
    WD_COLOR_INDEX.GRAY_50: "Gray 50%",
}


@pytest.fixture(scope="module")
def highlighted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    for index, name in MENU_NAMES.items():
        run = d.add_paragraph().add_run(f"Marked {name.replace(' ', '').replace('%', '')}")
        run.font.highlight_color = index
    path = tmp_path_factory.mktemp("word-names") / "highlights.docx"
    d.save(str(path))
    return path


@pytest.mark.parametrize("name", list(MENU_NAMES.values()))
def test_word_highlight_menu_names_mean_the_drawn_colour(highlighted: Path, name: str) -> None:
    doc = load(highlighted, render=True)
    label = f"Marked {name.replace(' ', '').replace('%', '')}"
    run = next(r for r in doc.select("run") if r.text == label)
    drawn = background(render_pdf(highlighted).pdf_path, run.box)
    # the name resolves (among its meanings) to what LibreOffice draws under the run...
    assert any(same_color(c.hex, drawn) for c in resolve_color(name)), (name, drawn)
    # ...and the check a task author writes passes on it
    verdict = run_check("format_is", doc, {"target": {"selector": "run", "text": label}, "highlight": name})
    assert verdict.status == "pass", verdict.explanation


def test_a_tie_between_two_names_of_one_colour_goes_to_the_name_written(highlighted: Path) -> None:
    """#008080 is both Word's "teal" and its file value "dark cyan"; #800080 "violet" and
    "dark magenta": either name classifies it."""
    doc = load(highlighted, render=True)
    for label, names in (("Marked teal", ("teal", "dark cyan")), ("Marked violet", ("violet", "dark magenta"))):
        for name in names:
            verdict = run_check(
                "color_classified_as",
                doc,
                {"target": {"selector": "run", "text": label}, "property": "highlight", "expected": name, "vocabulary": "word"},
            )
            assert verdict.status == "pass", (name, verdict.explanation)
    wrong = run_check(
        "color_classified_as",
        doc,
        {"target": {"selector": "run", "text": "Marked teal"}, "property": "highlight", "expected": "violet", "vocabulary": "word"},
    )
    assert wrong.status == "fail"
