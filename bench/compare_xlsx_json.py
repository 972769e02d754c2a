"""The JSON tree of every corpus and fixture .xlsx, written to a directory, or compared
with one written earlier: a memory or speed change to the .xlsx extractor must leave
every file's output byte-identical.

    .venv/bin/python bench/compare_xlsx_json.py dump OLD_DIR     # with the old code, e.g.
        PYTHONPATH=/path/to/old/checkout .venv/bin/python bench/compare_xlsx_json.py dump OLD_DIR
    .venv/bin/python bench/compare_xlsx_json.py compare OLD_DIR  # with the new code

Files: every ``*.xlsx``/``*.xlsm`` under ``--corpus`` (default ``$ARTIFACTCHECK_CORPUS``) and
``fixtures/xlsx``, plus any ``--extra`` files (e.g. the sheets bench_extract_xlsx.py builds). A file the extractor refuses is recorded as its error type and message,
so a changed refusal counts as a difference too. Prints which checkout's package ran.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from pathlib import Path

import artifactcheck
from artifactcheck.errors import ArtifactCheckError
from artifactcheck.extractors.xlsx.extract import extract_xlsx

REPO = Path(__file__).resolve().parents[1]


def inputs(corpus: Path | None, extra: list[Path]) -> list[tuple[str, Path]]:
    found: list[tuple[str, Path]] = []
    roots = [("fixtures", REPO / "fixtures" / "xlsx")]
    if corpus is not None:
        roots.append(("corpus", corpus))
    for label, root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix.lower() in (".xlsx", ".xlsm") and path.is_file():
                found.append((f"{label}/{path.relative_to(root)}", path))
    found.extend((f"extra/{path.name}", path) for path in extra)
    return found


def output_of(path: Path) -> str:
    try:
        return extract_xlsx(path).to_json()
    except ArtifactCheckError as e:  # every refusal is part of the output being compared (a crash stops the run)
        return f"ERROR {type(e).__name__}: {e}"


def key_file(out_dir: Path, name: str) -> Path:
    return out_dir / (hashlib.sha1(name.encode()).hexdigest()[:16] + ".json")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["dump", "compare"])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--corpus", type=Path, default=Path(os.environ["ARTIFACTCHECK_CORPUS"])
                    if os.environ.get("ARTIFACTCHECK_CORPUS") else None)
    ap.add_argument("--extra", type=Path, nargs="*", default=[])
    args = ap.parse_args()
    print(f"package: {Path(artifactcheck.__file__).parent}")
    files = inputs(args.corpus, args.extra)
    if args.mode == "dump":
        args.dir.mkdir(parents=True, exist_ok=True)
    same = differ = errors = 0
    for name, path in files:
        out = output_of(path)
        errors += out.startswith("ERROR ")
        target = key_file(args.dir, name)
        if args.mode == "dump":
            target.write_text(out, encoding="utf-8")
            continue
        old = target.read_text(encoding="utf-8") if target.exists() else None
        if old == out:
            same += 1
        else:
            differ += 1
            print(f"DIFFERS: {name}" + (" (not in the old dump)" if old is None else ""))
    if args.mode == "dump":
        print(f"{len(files)} files dumped ({errors} refused) to {args.dir}")
        return 0
    print(f"{len(files)} files: {same} identical, {differ} different ({errors} refused, same refusal counts as identical)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
