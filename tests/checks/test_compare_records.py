"""``compare_records`` on python-docx-built record files (the "remove duplicate train
records" task), and its verdict beside OSWorld's ``compare_unique_train_records`` rule,
re-stated here from its published code over the same files with python-docx."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import docx
import pytest

from artifactcheck import load
from artifactcheck.checks.registry import Resources, run_check
from artifactcheck.checks.result import CheckResult

KEY = "[^,]*,([^,]*),[^,]*,[^,]*"  # the second of exactly four comma fields
INITIAL = [
    "08:15:00, T102, S4, 2",
    "08:20:00, T205, S1, 1",
    "08:15:00, T102, S4, 2",
    "09:05:00, T311, S2, 3",
    "09:40:00, T205, S1, 1",
    "10:00:00, T420, S3, 4",
]
GOLD = [INITIAL[0], INITIAL[1], INITIAL[3], INITIAL[5]]


def write(path: Path, lines: list[str], *, blank_every: int = 0) -> Path:
    document = docx.Document()
    for i, line in enumerate(lines):
        document.add_paragraph(line)
        if blank_every and i % blank_every == 0:
            document.add_paragraph("")
    document.save(str(path))
    return path


def osworld_verdict(processed: Path, gold: Path, initial: Path) -> int:
    """OSWorld's rule: processed lines (non-empty paragraphs, stripped) a subset of the
    initial's; keys of four-field lines unique; key set and line count equal the gold's."""

    def lines_and_ids(path: Path) -> tuple[list[str], list[str]]:
        lines = [p.text.strip() for p in docx.Document(str(path)).paragraphs if p.text.strip()]
        return lines, [ln.split(",")[1].strip() for ln in lines if len(ln.split(",")) == 4]

    lines, ids = lines_and_ids(processed)
    gold_lines, gold_ids = lines_and_ids(gold)
    initial_lines, _ = lines_and_ids(initial)
    ok = (
        set(lines) <= set(initial_lines)
        and len(ids) == len(set(ids))
        and set(ids) == set(gold_ids)
        and len(lines) == len(gold_lines)
    )
    return int(ok)


def score(folder: Path, artifact: Path, **params: Any) -> CheckResult:
    return run_check(
        "compare_records", load(artifact, render=False),
        {"reference": "gold.docx", "key_pattern": KEY, "lines_from": "initial.docx", **params},
        Resources(assets_dir=str(folder)),
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    write(tmp_path / "initial.docx", INITIAL)
    write(tmp_path / "gold.docx", GOLD)
    return tmp_path


VARIANTS: dict[str, tuple[list[str], str | None]] = {
    # name: (artifact lines, aspect that differs or None)
    "gold": (GOLD, None),
    "reordered, blank lines": (list(reversed(GOLD)), None),
    "kept the later T205": ([INITIAL[0], INITIAL[3], INITIAL[4], INITIAL[5]], None),
    "duplicate left": (GOLD + [INITIAL[2]], "unique"),
    "record dropped": (GOLD[:3], "keys"),
    "line edited": ([GOLD[0], "08:20:00, T205, S1, 9", GOLD[2], GOLD[3]], "lines_from"),
    "invented line": (GOLD[:3] + ["11:00:00, T999, S9, 9"], "lines_from"),
    "a note added": (GOLD + ["Removed 2 duplicates"], "lines_from"),
}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_verdict_and_the_aspect_at_fault(folder: Path, name: str) -> None:
    lines, fault = VARIANTS[name]
    artifact = write(folder / "artifact.docx", lines, blank_every=2 if "blank" in name else 0)
    result = score(folder, artifact)
    assert result.status == ("pass" if fault is None else "fail"), result.explanation
    if fault is not None:
        assert result.evidence["aspects"][fault]["different"] >= 1
        assert fault in result.explanation
    assert int(result.status == "pass") == osworld_verdict(artifact, folder / "gold.docx", folder / "initial.docx")


def test_a_duplicate_is_located(folder: Path) -> None:
    artifact = write(folder / "artifact.docx", GOLD + [INITIAL[2]])
    diffs = score(folder, artifact).evidence["differences"]
    assert sorted(d["aspect"] for d in diffs) == ["line_count", "unique"]
    (diff,) = (d for d in diffs if d["aspect"] == "unique")
    assert diff["aspect"] == "unique" and diff["location"].startswith("line 5 (") and "T102" in diff["note"]


def test_line_count_alone(folder: Path) -> None:
    # a line without a key (not four fields) taken from the initial file: keys agree, count does not
    write(folder / "initial.docx", INITIAL + ["Train log"])
    artifact = write(folder / "artifact.docx", ["Train log", *GOLD])
    result = score(folder, artifact)
    assert result.status == "fail" and {a for a, v in result.evidence["aspects"].items() if v["different"]} == {"line_count"}
    assert result.evidence["artifact_lines_without_key"] == 1
    assert osworld_verdict(artifact, folder / "gold.docx", folder / "initial.docx") == 0


def test_requirements_can_be_turned_off(folder: Path) -> None:
    artifact = write(folder / "artifact.docx", GOLD + [INITIAL[2]])
    assert score(folder, artifact, unique_keys=False, same_line_count=False).status == "pass"
    assert score(folder, artifact, unique_keys=False).status == "fail"


def test_whole_line_keys_without_a_pattern(folder: Path) -> None:
    artifact = write(folder / "artifact.docx", GOLD + [GOLD[0]])
    result = score(folder, artifact, key_pattern=None, same_line_count=False)
    assert result.status == "fail" and result.evidence["aspects"]["unique"]["different"] == 1


def test_partial_credit(folder: Path) -> None:
    artifact = write(folder / "artifact.docx", GOLD + [INITIAL[2]])
    result = score(folder, artifact, partial_credit=True)
    assert 0 < result.score < 1


def test_bad_rubric_and_missing_files_are_errors(folder: Path) -> None:
    artifact = write(folder / "artifact.docx", GOLD)
    assert score(folder, artifact, key_pattern="([unclosed").status == "error"
    assert score(folder, artifact, lines_from="nope.docx").status == "error"
    (folder / "gold.png").write_bytes(b"not really")
    assert score(folder, artifact, reference="gold.png").status == "error"
