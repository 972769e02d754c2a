"""Dump, for every .docx of a folder, what the layout pass gave each node, so two versions
of the code can be compared box for box (a speed-up must not move a box).

    .venv/bin/python scripts/docx_layout_digest.py OUT.json [FOLDER] [--only NAME ...]
    .venv/bin/python scripts/docx_layout_digest.py --compare A.json B.json

Per file: every node's id with its boxes (page and coordinates rounded to 1e-6 pt), the
layout attrs (``rendered``, ``not_rendered_reason``, ``layout_match``) and a hash of the
rest of the node (kind, text, style, attrs, source); the root's coverage attrs and the
page sections. ``--compare`` prints the files and nodes that differ and
exits 1 when any does. Renders go through the render cache.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from artifactcheck.errors import ArtifactCheckError
from artifactcheck.extractors.docx.extract import extract_docx

_ATTRS = ("rendered", "not_rendered_reason", "layout_match")
_ROOT_ATTRS = ("layout_text_coverage", "layout_key_chars", "layout_matched_chars")


def _default_folder() -> Path:
    for base in (REPO.parent, REPO.parent.parent):
        if (base / "shared" / "corpus" / "docx").is_dir():
            return base / "shared" / "corpus" / "docx"
    return REPO.parent / "shared" / "corpus" / "docx"


def digest(path: Path) -> dict[str, Any]:
    doc = extract_docx(path, timeout=600)
    nodes: dict[str, Any] = {}
    for n in doc.root.iter():
        entry: dict[str, Any] = {
            "boxes": [
                [b.page, round(b.x0, 6), round(b.top, 6), round(b.x1, 6), round(b.bottom, 6)]
                for b in n.boxes
            ]
        }
        for a in _ATTRS:
            if a in n.attrs:
                entry[a] = n.attrs[a]
        # The rest of the node (kind, text, style, every attr, source), as one hash.
        rest = n.model_dump(mode="json", exclude={"boxes", "children"})
        entry["node"] = hashlib.sha256(json.dumps(rest, sort_keys=True).encode()).hexdigest()[:16]
        nodes[n.id] = entry
    return {
        "root": {a: doc.root.attrs.get(a) for a in _ROOT_ATTRS},
        "pages": [[p.index, p.attrs.get("section")] for p in doc.pages],
        "nodes": nodes,
    }


def compare(a_path: Path, b_path: Path) -> int:
    a = json.loads(a_path.read_text())
    b = json.loads(b_path.read_text())
    differ = 0
    for name in sorted(set(a) | set(b)):
        da, db = a.get(name), b.get(name)
        if da == db:
            continue
        differ += 1
        if da is None or db is None:
            print(f"{name}: only in {'B' if da is None else 'A'}")
            continue
        for key in ("root", "pages"):
            if da[key] != db[key]:
                print(f"{name}: {key} {da[key]} -> {db[key]}")
        na, nb = da["nodes"], db["nodes"]
        changed = [k for k in sorted(set(na) | set(nb)) if na.get(k) != nb.get(k)]
        print(f"{name}: {len(changed)} nodes differ")
        for k in changed[:10]:
            print(f"  {k}: {na.get(k)} -> {nb.get(k)}")
    print(f"{len(set(a) | set(b))} files, {differ} differ")
    return 1 if differ else 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", help="JSON file to write")
    ap.add_argument("folder", nargs="?", default=None)
    ap.add_argument("--only", nargs="*", default=None, help="file names to include")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"), default=None)
    args = ap.parse_args()
    if args.compare:
        return compare(Path(args.compare[0]), Path(args.compare[1]))
    if not args.out:
        ap.error("OUT.json is required unless --compare is given")
    folder = Path(args.folder) if args.folder else _default_folder()
    files = sorted(folder.glob("*.docx"))
    if args.only:
        files = [f for f in files if f.name in set(args.only)]
    out: dict[str, Any] = {}
    for f in files:
        try:
            out[f.name] = digest(f)
        except ArtifactCheckError as exc:
            out[f.name] = {"error": str(exc)}
        print(f.name, flush=True)
    Path(args.out).write_text(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
