"""A tiny in-memory Document for the checks' doctests and the ``artifactcheck checks``
examples, built with the model classes (no file, no extractor). Real-file tests live in
tests/checks/.

``tiny_doc()`` holds, in order: a Heading 1 "Energy report", a paragraph with a dark
cyan 1, bold, italic, 12 pt hyperlink to https://example.org/report, two topic paragraphs
highlighted in different colours ("Solar", "Wind"), a bullet with a URL and one sub-bullet,
and a 3x2 table with a header row.
"""

from __future__ import annotations

from typing import Any

from ..extractors.tree_builder import fill_container_text
from ..model import ArtifactInfo, Document, Node, Page, Style


def run(node_id: str, text: str, *, hyperlink: str | None = None, **style: Any) -> Node:
    """A run node with an effective style (keyword arguments are Style fields)."""
    attrs: dict[str, Any] = {"hyperlink": hyperlink} if hyperlink else {}
    return Node(id=node_id, kind="run", text=text, style=Style(**style), attrs=attrs)


def paragraph(node_id: str, *runs: Node | str, **attrs: Any) -> Node:
    """A paragraph of runs; a plain string becomes an unstyled run."""
    children = [r if isinstance(r, Node) else run(f"{node_id}/r{i}", r) for i, r in enumerate(runs)]
    return Node(id=node_id, kind="paragraph", attrs=attrs, children=children)


def document(*children: Node, fmt: str = "docx", pages: int = 1) -> Document:
    """A Document whose root holds ``children``; container text is filled in."""
    root = Node(id="doc", kind="document", children=list(children))
    fill_container_text(root)
    platform = "google" if fmt.startswith("g") else "office"
    kind = {"pptx": "slide", "gslides": "slide", "xlsx": "sheet", "gsheet": "sheet"}.get(
        fmt, "page"
    )
    return Document(
        artifact=ArtifactInfo(format=fmt, platform=platform, sha256="0" * 64, size_bytes=0),
        pages=[Page(index=i, kind=kind, width=612, height=792) for i in range(pages)],
        root=root,
    )


def tiny_doc() -> Document:
    """The example document described in the module docstring."""
    cells = [["Name", "Score"], ["Ada", "91"], ["Bob", "78"]]
    rows = [
        Node(
            id=f"t0/r{r}",
            kind="row",
            children=[
                Node(
                    id=f"t0/r{r}/c{c}",
                    kind="cell",
                    attrs={"row": r + 1, "col": c + 1},
                    children=[
                        paragraph(f"t0/r{r}/c{c}/p0", run(f"t0/r{r}/c{c}/p0/r0", text, bold=r == 0))
                    ],
                )
                for c, text in enumerate(row)
            ],
        )
        for r, row in enumerate(cells)
    ]
    return document(
        paragraph(
            "p0",
            run("p0/r0", "Energy report", bold=True, size=20),
            heading_level=1,
            style_name="Heading 1",
        ),
        paragraph(
            "p1",
            run("p1/r0", "Read the ", size=11),
            run(
                "p1/r1",
                "full report",
                hyperlink="https://example.org/report",
                bold=True,
                italic=True,
                size=12,
                color="#45818e",
            ),
            run("p1/r2", " online.", size=11),
        ),
        paragraph("p2", run("p2/r0", "Solar", highlight="#fff2cc"), run("p2/r1", " is growing.")),
        paragraph("p3", run("p3/r0", "Wind", highlight="#d0e0e3"), run("p3/r1", " is cheap.")),
        paragraph(
            "p4", run("p4/r0", "https://example.com/facts"), list_level=0, list_ordered=False
        ),
        paragraph("p5", run("p5/r0", "Fact one"), list_level=1, list_ordered=False),
        Node(id="t0", kind="table", children=rows),
    )
