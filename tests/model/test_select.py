import pytest

from artifactcheck.errors import SelectorError

from .test_document import make_doc


@pytest.mark.parametrize(
    ("selector", "ids"),
    [
        ("paragraph", ["p0", "p1"]),
        ("paragraph[heading_level='1']", ["p0"]),
        ("run[bold=true][italic=true]", ["r2"]),
        ("run[hyperlink]", ["r2"]),
        ("run[hyperlink*='example.org']", ["r2"]),
        ("run[color='#008b8b']", ["r2"]),
        ("run[size='12']", ["r1", "r2"]),
        ("paragraph:contains('the site')", ["p1"]),
        ("cell[text^='Na']", ["t0/r0/c0"]),
        ("table row:first-child cell:last-child", ["t0/r0/c1"]),
        ("document > image", ["img0"]),
        ("[pages~='1']", ["p1", "img0"]),
        ("paragraph:not([heading_level])", ["p1"]),
        ("paragraph > run, image", ["r0", "r1", "r2", "img0"]),
    ],
)
def test_selectors(selector: str, ids: list[str]) -> None:
    assert [n.id for n in make_doc().select(selector)] == ids


def test_select_scoped_to_subtree() -> None:
    doc = make_doc()
    assert [n.id for n in doc.get("p1").select("run")] == ["r1", "r2"]
    assert doc.get("p1").select_one("image") is None


def test_bad_selector_is_typed() -> None:
    with pytest.raises(SelectorError, match="cannot parse selector"):
        make_doc().select("paragraph[[")


def test_a_boolean_attribute_alone_means_true(tmp_path: object) -> None:
    """python-docx runs: explicitly italic, explicitly upright (italic=False, as an agent
    writes ``run.italic = False``), and unset. ``run[italic]`` is the italic one only."""
    from pathlib import Path

    import docx

    import artifactcheck

    word = docx.Document()
    para = word.add_paragraph()
    para.add_run("slanted").italic = True
    para.add_run(" upright").italic = False
    para.add_run(" plain")
    path = Path(str(tmp_path)) / "italic.docx"
    word.save(str(path))
    doc = artifactcheck.load(path)
    texts = lambda sel: [n.text.strip() for n in doc.select(sel)]
    assert texts("run[italic]") == ["slanted"]
    assert texts("run[italic=true]") == ["slanted"]
    # the effective style resolves "unset" to false, and the extractor joins the two runs
    assert texts("run:not([italic])") == ["upright plain"]
    assert texts("run[italic=false]") == ["upright plain"]
    # other attributes alone still mean "present"
    assert texts("run[text]") == ["slanted", "upright plain"]
