"""The tree's compact forms behave as the plain ones did: slotted nodes and boxes, the
shared empty children list, positions and the id index built on first use, and the
.xlsx builder's per-row cell index (design/xlsx-geometry.md, fourth round)."""

from __future__ import annotations

import copy
import json
import pickle
import random
import weakref
from pathlib import Path

import pytest
from openpyxl import Workbook
from openpyxl.comments import Comment
from pydantic import ValidationError

from artifactcheck.extractors.xlsx.cell_index import CellIndex
from artifactcheck.extractors.xlsx.extract import extract_xlsx
from artifactcheck.model import ArtifactInfo, Box, Document, Node
from artifactcheck.model.node import NO_CHILDREN


def _doc(root: Node) -> Document:
    info = ArtifactInfo(format="docx", platform="office", sha256="0" * 64, size_bytes=0)
    return Document(artifact=info, pages=[], root=root)


def test_nodes_and_boxes_validate_as_models_did() -> None:
    with pytest.raises(ValidationError):
        Node(id="a", kind="cell", colour="red")  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        Node(id="a", kind="cell", text=3)  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        Box(page=-1, x0=0, top=0, x1=1, bottom=1)
    with pytest.raises(ValidationError):
        Box.model_validate({"page": 0, "x0": 2, "top": 0, "x1": 1, "bottom": 1})
    node = Node.model_validate({"id": "a", "kind": "cell", "boxes": [{"page": 0, "x0": 0, "top": 0, "x1": 1, "bottom": 2}]})
    assert node.boxes == [Box(page=0, x0=0, top=0, x1=1, bottom=2)]
    assert json.loads(node.model_dump_json())["boxes"][0]["bottom"] == 2.0
    assert Node.model_validate_json(node.model_dump_json()) == node
    assert not hasattr(node, "__dict__") and not hasattr(node.boxes[0], "__dict__")
    assert weakref.ref(node)() is node  # nodes stay weak-referable, as BaseModel nodes were
    with pytest.raises(ValueError, match="no field 'colour'"):
        node.model_copy(update={"colour": "red"})


def test_the_shared_empty_children_list_is_read_only_and_still_a_list() -> None:
    leaf = Node.model_construct(id="c", kind="cell", children=NO_CHILDREN)
    assert leaf.children == [] and isinstance(leaf.children, list)
    assert leaf.model_dump()["children"] == [] and '"children":[]' in leaf.model_dump_json()
    for change in (lambda: leaf.children.append(leaf), lambda: leaf.children.extend([leaf]),
                   lambda: leaf.children.insert(0, leaf), lambda: leaf.children.__iadd__([leaf])):
        with pytest.raises(TypeError, match="assign node.children"):
            change()
    assert NO_CHILDREN == []
    assert copy.copy(leaf).children is NO_CHILDREN and copy.deepcopy(leaf).children is NO_CHILDREN
    assert pickle.loads(pickle.dumps(leaf)).children is NO_CHILDREN
    leaf.children = [Node(id="c/r0", kind="run", text="x")]  # a list of its own: fine
    assert NO_CHILDREN == []


def test_order_and_index_are_built_on_first_use_and_follow_a_relink() -> None:
    runs = [Node(id=f"r{i}", kind="run", text=str(i)) for i in range(3)]
    root = Node(id="doc", kind="document", children=[Node(id="p", kind="paragraph", children=runs)])
    doc = _doc(root)
    assert [n.order for n in doc] == [0, 1, 2, 3, 4]
    assert doc.get("r2") is runs[2]
    with pytest.raises(KeyError, match="no node with id 'nope'"):
        doc.get("nope")
    # a changed tree, linked again: new positions and a new index
    root.children.insert(0, Node(id="title", kind="paragraph", text="T"))
    doc._link()
    assert doc.get("title").order == 1 and runs[0].order == 3
    assert doc.get("r0") is runs[0] and runs[0].parent is root.children[1]


def test_a_duplicate_id_is_still_refused_when_the_document_is_made() -> None:
    root = Node(id="doc", kind="document", children=[Node(id="b", kind="run"), Node(id="a", kind="run"), Node(id="b", kind="run")])
    with pytest.raises(ValueError, match="duplicate node id 'b'"):
        _doc(root)


def test_cell_index_answers_as_a_dict() -> None:
    rng = random.Random(7)
    index, plain = CellIndex(), {}
    nodes = [Node(id=f"n{i}", kind="cell") for i in range(50)]
    for _ in range(400):
        pos = (rng.randint(1, 12), rng.randint(1, 6))
        index[pos] = plain[pos] = rng.choice(nodes)
    assert len(index) == len(plain) and bool(index)
    assert sorted(index) == sorted(plain) and sorted(index.items(), key=lambda kv: kv[0]) == sorted(plain.items())
    for r in range(14):
        for c in range(8):
            assert ((r, c) in index) == ((r, c) in plain)
            assert index.get((r, c)) is plain.get((r, c))
    assert (1, 2, 3) not in index and "A1" not in index
    with pytest.raises(KeyError):
        index[(99, 1)]
    assert set(index.rows()) == {r for r, _ in plain} and sorted(index.columns()) == sorted(c for _, c in plain)
    assert not CellIndex()


def test_xlsx_leaf_cells_share_the_empty_list_and_cells_with_children_do_not(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws["A1"], ws["B1"], ws["A2"] = "plain", 3, "noted"
    ws["A2"].comment = Comment("look here", "Ann")
    ws["D9"].comment = Comment("on an empty cell", "Bo")  # an orphan comment's cell
    path = tmp_path / "cells.xlsx"
    wb.save(path)
    doc = extract_xlsx(path)
    cells = {n.attrs["ref"]: n for n in doc.iter("cell")}
    assert cells["A1"].children is NO_CHILDREN and cells["B1"].children is NO_CHILDREN
    assert [c.kind for c in cells["A2"].children] == ["comment"] and cells["A2"].children is not NO_CHILDREN
    assert [c.text for c in cells["D9"].children] == ["on an empty cell"]
    assert doc.get("Sheet!A2").attrs["comment"] == "look here"
    assert doc.get("Sheet!D9").order > doc.get("Sheet!A2").order


def test_a_cycle_in_the_tree_is_refused_not_walked_forever() -> None:
    """The ids are checked by sorting after the walk; a node seen twice in the walk (a
    cycle: a paragraph holding the root) is refused as it is met, before the walk loops."""
    para = Node(id="p", kind="paragraph")
    root = Node(id="doc", kind="document", children=[para])
    para.children = [root]
    with pytest.raises(ValueError, match="duplicate node id 'doc'"):
        _doc(root)
