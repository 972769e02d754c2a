"""The selector fast path (model/select_python.py) against the lxml mirror it replaces on
most queries: on real trees, for hand-written edge cases and for selectors drawn from
each tree's own vocabulary, both engines return the same nodes in the same order."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import artifactcheck
from artifactcheck.model import Document, Node
from artifactcheck.model.select import fast_path_covers, select_nodes
from artifactcheck.model.select_python import mirror_value
from artifactcheck.model.style import STYLE_FIELDS
from tests.conftest import FIXTURES, corpus_files

# A few trees of each source: fixtures (always there) and corpus files (when present).
_FIXTURE_FILES = [
    FIXTURES / "docx" / "tree_features.docx",
    FIXTURES / "docx" / "word_styles.docx",
    FIXTURES / "pptx" / "deck.pptx",
    FIXTURES / "xlsx" / "geometry.xlsx",
]
_CORPUS_NAMES = {
    "docx": ("docling_word_tables.docx", "docx2python_run_styles.docx", "tika_testWORD_various.docx"),
    "pptx": ("tika_testPPT_groups.pptx", "poi_table_test2.pptx", "unstructured_group-shapes-nested.pptx"),
    "xlsx": ("poi_ConditionalFormattingSamples.xlsx",),
}


def _files() -> list[Path]:
    found = [p for p in _FIXTURE_FILES if p.is_file()]
    for folder, names in _CORPUS_NAMES.items():
        found += [p for p in corpus_files(folder) if p.name in names]
    return found


FILES = _files()


@cache
def _load(path: Path) -> Document:
    return artifactcheck.load(path, render=False, recalculate=False)


def ids(scope: Node, selector: str, engine: str) -> list[str]:
    owner = scope.document
    index = owner.selection if owner is not None else None
    return [n.id for n in select_nodes(scope, selector, index, engine=engine)]  # type: ignore[arg-type]


def same_on_both(doc: Document, selector: str, scopes: list[Node] | None = None) -> None:
    for scope in [doc.root, *(scopes or [])]:
        fast, slow = ids(scope, selector, "python"), ids(scope, selector, "lxml")
        assert fast == slow, f"{selector!r} from {scope.id!r}: python {fast[:8]}... lxml {slow[:8]}..."


EDGE_CASES = [
    "*", "paragraph", "run", "cell", "image", "slide shape", "sheet cell[value]", "document > *",
    "run[bold]", "run[bold=true]", "run[bold=false]", "run:not([bold])", "run[italic][size]",
    "[pages]", "[pages~='0']", "[pages~='']", "[text]", "[text='']", "[text!='']", "[text!='x']",
    "cell[text^='1']", "cell[text$='0']", "cell[text*='a']", "cell[text^='']", "[id|='s1']",
    "paragraph[style_name~='Heading']", "[font]", "[color='#000000']", "[size='11']",
    "paragraph:contains('the')", "row:contains('1')", ":contains('')", "cell:empty", "*:empty",
    ":root", "document:root", "paragraph:root", "run:hover", ":not(*)", ":not(run)",
    "*:first-child", "*:last-child", "*:only-child", "cell:first-of-type", "row:last-of-type",
    "paragraph:only-of-type", "row:nth-child(2)", "cell:nth-child(2n+1)", "cell:nth-child(-n+2)",
    "cell:nth-last-child(1)", "row:nth-of-type(3)", "row:nth-last-of-type(odd)", "slide:nth-of-type(2) shape",
    "table row:first-child cell", "table > row > cell:last-child", "sheet row cell", "shape paragraph run",
    "paragraph > run, image", "cell, paragraph", "run, run[bold]", "#doc", ".x", "[heading_level]",
    "paragraph:not([list_level])", "run:not(:first-child)", "cell:not(:nth-child(2n))",
    "group shape", "group > group shape", "slide > shape > paragraph", "textbox paragraph",
]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_edge_cases_agree(path: Path) -> None:
    doc = _load(path)
    scopes = [n for n in doc.root.children[:3]]
    for selector in EDGE_CASES:
        assert fast_path_covers(selector), selector
        same_on_both(doc, selector, scopes)


def test_a_typical_rubric_query_builds_no_mirror() -> None:
    doc = artifactcheck.load(FIXTURES / "docx" / "tree_features.docx", render=False)
    for selector in ("paragraph", "run[bold]", "cell", "image", "table row:first-child cell"):
        doc.select(selector)
    assert not doc.selection.mirror_built


@pytest.mark.parametrize(
    "selector",
    ["paragraph + paragraph", "paragraph ~ table", ":has(run)", ":is(paragraph, cell)", "[text='a' i]",
     "run:not(paragraph run)", "*|run", "run::first-line"],
)
def test_what_the_fast_path_leaves_to_lxml(selector: str) -> None:
    """Sibling combinators, :has/:is, flags, namespaces: lxml evaluates them (or rejects
    them, the same SelectorError as before)."""
    doc = _load(FILES[0])
    try:
        covered = fast_path_covers(selector)
    except artifactcheck.SelectorError:
        with pytest.raises(artifactcheck.SelectorError):
            doc.select(selector)
        return
    assert not covered
    assert [n.id for n in doc.select(selector)] == ids(doc.root, selector, "lxml")
    with pytest.raises(ValueError, match="does not cover"):
        ids(doc.root, selector, "python")


def test_a_node_outside_a_document_is_its_own_root() -> None:
    """Without a Document the subtree is indexed alone: the scope has no siblings."""
    doc = _load(FILES[0])
    para = doc.select("paragraph")[1]
    loose = Node.model_validate(para.model_dump())
    for selector in ("paragraph", ":root", "*:first-child", "run:last-child", "paragraph run", ":only-child"):
        assert ids(loose, selector, "python") == ids(loose, selector, "lxml")


def test_changed_attributes_are_seen_after_invalidate() -> None:
    doc = artifactcheck.load(FIXTURES / "docx" / "tree_features.docx", render=False)
    run = doc.select("run")[0]
    run.attrs["probe"] = "yes"
    doc.selection.invalidate()
    assert [n.id for n in doc.select("run[probe='yes']")] == [run.id] == ids(doc.root, "run[probe='yes']", "lxml")


# -- selectors drawn from each tree's own vocabulary ---------------------------------------


@cache
def _vocabulary(path: Path) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """Kinds, attribute names and some values of each name, as found in the tree."""
    doc = _load(path)
    kinds = sorted({n.kind for n in doc.root.iter()})
    names: set[str] = {"id", "text", "pages", *STYLE_FIELDS}
    for node in doc.root.iter():
        names.update(node.attrs)
    values: dict[str, list[str]] = {}
    nodes = list(doc.root.iter())
    step = max(1, len(nodes) // 200)
    for name in sorted(names):
        seen: list[str] = []
        for node in nodes[::step]:
            value = mirror_value(node, name)
            if value is not None and value not in seen:
                seen.append(value)
        values[name] = seen[:6]
    attribute_names = sorted(n for n in names if values.get(n)) + ["absent_name"]
    return kinds, attribute_names, values


def _attribute(draw: st.DrawFn, names: list[str], values: dict[str, list[str]]) -> str:
    name = draw(st.sampled_from(names))
    op = draw(st.sampled_from(["", "=", "!=", "~=", "|=", "^=", "$=", "*="]))
    if not op:
        return f"[{name}]"
    known = values.get(name) or ["x"]
    value = draw(st.sampled_from(known))
    cut = draw(st.sampled_from(["whole", "head", "tail", "middle", "word", "empty"]))
    if cut == "head":
        value = value[: max(1, len(value) // 2)]
    elif cut == "tail":
        value = value[len(value) // 2 :]
    elif cut == "middle":
        value = value[len(value) // 3 : 2 * len(value) // 3 + 1]
    elif cut == "word":
        value = (value.split() or [""])[0]
    elif cut == "empty":
        value = ""
    quoted = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\a ")
    return f'[{name}{op}"{quoted}"]'


_PSEUDOS = [":first-child", ":last-child", ":only-child", ":empty", ":root", ":nth-child(2)", ":nth-child(odd)",
            ":nth-child(3n+1)", ":nth-last-child(-n+2)", ":contains('e')", ":contains('1')"]
_TYPED_PSEUDOS = [":first-of-type", ":last-of-type", ":only-of-type", ":nth-of-type(2)", ":nth-last-of-type(2n)"]


@st.composite
def compounds(draw: st.DrawFn, kinds: list[str], names: list[str], values: dict[str, list[str]]) -> str:
    kind = draw(st.sampled_from(["*", *kinds]))
    parts = [kind]
    for _ in range(draw(st.integers(0, 2))):
        choice = draw(st.sampled_from(["attr", "attr", "pseudo", "not"]))
        if choice == "attr":
            parts.append(_attribute(draw, names, values))
        elif choice == "pseudo":
            parts.append(draw(st.sampled_from(_PSEUDOS + (_TYPED_PSEUDOS if kind != "*" else []))))
        else:
            inner = draw(st.sampled_from(["attr", "kind", "pseudo"]))
            if inner == "attr":
                parts.append(f":not({_attribute(draw, names, values)})")
            elif inner == "kind":
                parts.append(f":not({draw(st.sampled_from(kinds))})")
            else:
                parts.append(f":not({draw(st.sampled_from(_PSEUDOS))})")
    return "".join(parts)


@st.composite
def selectors(draw: st.DrawFn, path: Path) -> str:
    kinds, names, values = _vocabulary(path)
    groups = []
    for _ in range(draw(st.integers(1, 2))):
        chain = draw(compounds(kinds, names, values))
        for _ in range(draw(st.integers(0, 2))):
            chain += draw(st.sampled_from([" ", " > "])) + draw(compounds(kinds, names, values))
        groups.append(chain)
    return ", ".join(groups)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_drawn_selectors_agree(path: Path) -> None:
    doc = _load(path)
    scopes = [doc.root.children[0], doc.root.children[-1]] if doc.root.children else []

    @settings(max_examples=60)
    @given(selector=selectors(path))
    def agree(selector: str) -> None:
        assert fast_path_covers(selector), selector
        same_on_both(doc, selector, scopes)

    agree()
