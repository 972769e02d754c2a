import json

import pytest
from pydantic import ValidationError

from artifactcheck.extractors.tree_builder import fill_container_text
from artifactcheck.model import ArtifactInfo, Box, Document, Node, Page, Style
from artifactcheck.model.schema import SCHEMA_PATH, render_schema


def make_doc() -> Document:
    run = lambda i, text, **kw: Node(id=f"r{i}", kind="run", text=text, **kw)
    root = Node(
        id="doc",
        kind="document",
        children=[
            Node(
                id="p0",
                kind="paragraph",
                attrs={"heading_level": 1, "style_name": "Heading 1"},
                boxes=[Box(page=0, x0=72, top=72, x1=300, bottom=90, origin="layout")],
                children=[run(0, "Intro", style=Style(bold=True, size=16.0))],
            ),
            Node(
                id="p1",
                kind="paragraph",
                boxes=[
                    Box(page=0, x0=72, top=700, x1=540, bottom=720, origin="layout"),
                    Box(page=1, x0=72, top=72, x1=540, bottom=90, origin="layout"),
                ],
                children=[
                    run(1, "See ", style=Style(size=12.0)),
                    run(2, "the site", style=Style(bold=True, italic=True, color="#008B8B", size=12.0), attrs={"hyperlink": "https://example.org/a"}),
                ],
            ),
            Node(
                id="t0",
                kind="table",
                children=[
                    Node(id="t0/r0", kind="row", children=[
                        Node(id="t0/r0/c0", kind="cell", text="Name"),
                        Node(id="t0/r0/c1", kind="cell", text="Qty"),
                    ]),
                ],
            ),
            Node(id="img0", kind="image", attrs={"blob": "abc"}, boxes=[Box(page=1, x0=0, top=0, x1=10, bottom=10)]),
        ],
    )
    fill_container_text(root)
    return Document(
        artifact=ArtifactInfo(format="docx", platform="office", sha256="0" * 64, size_bytes=10),
        pages=[Page(index=0, kind="page", width=612, height=792), Page(index=1, kind="page", width=612, height=792)],
        root=root,
    )


def test_container_text_joins_by_kind() -> None:
    doc = make_doc()
    assert doc.get("p1").text == "See the site"
    assert doc.get("t0/r0").text == "Name\tQty"
    assert doc.text == "Intro\nSee the site\nName\tQty"


def test_navigation() -> None:
    doc = make_doc()
    r2 = doc.get("r2")
    assert r2.parent is doc.get("p1")
    assert [a.id for a in r2.ancestors()] == ["p1", "doc"]
    assert [n.id for n in doc.iter("paragraph")] == ["p0", "p1"]
    assert doc.get("r0").order < doc.get("r2").order
    assert r2.is_inside(doc.root) and not doc.root.is_inside(r2)
    assert doc.get("p1").pages == [0, 1]
    assert [n.id for n in doc.nodes_on_page(1)] == ["p1", "img0"]
    assert doc.page(-1).index == 1


def test_unknown_id_names_it() -> None:
    with pytest.raises(KeyError, match="nope"):
        make_doc().get("nope")


def test_duplicate_ids_rejected() -> None:
    root = Node(id="d", kind="document", children=[Node(id="x", kind="paragraph"), Node(id="x", kind="paragraph")])
    with pytest.raises(ValidationError, match="duplicate node id 'x'"):
        Document(artifact=ArtifactInfo(format="pptx", platform="office", sha256="0", size_bytes=0), pages=[], root=root)


def test_json_round_trip_restores_links() -> None:
    doc = make_doc()
    again = Document.from_json(doc.to_json())
    assert again.model_dump() == doc.model_dump()
    assert again.get("r2").parent is again.get("p1")
    assert again.get("r2").document is again


def test_colours_are_normalised_and_validated() -> None:
    assert Style(color="#00FF00").color == "#00ff00"
    with pytest.raises(ValidationError):
        Style(color="green")


def test_unknown_kind_rejected() -> None:
    with pytest.raises(ValidationError):
        Node(id="x", kind="paragraf")  # type: ignore[arg-type]


def test_committed_schema_is_current() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == render_schema(), (
        "document.schema.json is stale: run python -m artifactcheck.model.schema"
    )


def test_schema_validates_a_document() -> None:
    import jsonschema

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.validate(json.loads(make_doc().to_json()), schema)


def test_a_document_has_a_short_repr() -> None:
    import artifactcheck
    from artifactcheck.checks.examples import tiny_doc

    assert repr(tiny_doc()) == "<Document docx: 1 page, 39 nodes, 0 images>"
    from tests.conftest import FIXTURES

    big = artifactcheck.load(FIXTURES / "xlsx" / "geometry.xlsx")
    text = repr(big)
    assert text.startswith("<Document xlsx '") and text.endswith("sheets, 92 nodes, 1 image>"), text
    assert len(text) < 200 and str(big) == text


def test_navigation_survives_copies_and_pickles() -> None:
    """Parent, document and order live in slots (not pydantic private attributes): every
    way of copying a node, and a pickled Document, keeps them as before."""
    import copy
    import pickle

    doc = make_doc()
    run = doc.get("r0")
    assert run.parent is doc.get("p0") and run.document is doc and run.order == 2
    for twin in (copy.copy(run), run.model_copy(), run.model_copy(update={"text": "x"})):
        assert twin.parent is run.parent and twin.document is doc and twin.order == run.order
    deep = copy.deepcopy(run)
    assert deep.parent is not None and deep.parent.id == "p0" and deep.order == run.order
    back = pickle.loads(pickle.dumps(doc))
    assert back.to_json() == doc.to_json()
    r0 = back.get("r0")
    assert r0.parent is back.get("p0") and r0.document is back and r0.order == 2
    assert [n.id for n in r0.ancestors()] == ["p0", "doc"]
    lone = Node(id="x", kind="cell")
    built = Node.model_construct(id="y", kind="cell")
    assert (lone.parent, lone.document, lone.order) == (built.parent, built.document, built.order) == (None, None, -1)
    assert not hasattr(lone, "__dict__")  # a slotted node: no per-node dict, fields-set or private dict


def test_duplicate_ids_are_refused_also_when_one_node_appears_twice() -> None:
    shared = Node(id="same", kind="run")
    root = Node(id="doc", kind="document", children=[Node(id="p", kind="paragraph", children=[shared, shared])])
    with pytest.raises(ValueError, match="duplicate node id 'same'"):
        Document(artifact=ArtifactInfo(format="docx", platform="office", sha256="0" * 64, size_bytes=0),
                 pages=[], root=root)
