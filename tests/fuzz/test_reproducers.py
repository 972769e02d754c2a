"""Every reproducer of the bad-input campaign (corpus bad/fuzz, README.md there) is a
regression test: each runs in its own capped child process (runner.py) and must end as
the table says: typed (the error class named), or ok, and never with files left in its
TMPDIR, files written outside it, or processes still running. A new reproducer fails
test_every_reproducer_is_classified until it is added here."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import CORPUS

from .runner import Outcome, Request, Runner

FUZZ = CORPUS / "bad" / "fuzz"

# name -> (op, expected error class, or None when it must load; Request overrides)
LOADS: dict[str, tuple[str, str | None, dict[str, object]]] = {
    "untyped_NotImplementedError_zip_method99_rels.xlsx": ("load", "CorruptArtifact", {}),
    "untyped_zlib_error_corrupt_deflate_content_types.xlsx": ("load", "CorruptArtifact", {}),
    "untyped_RuntimeError_zip_encrypted_flag_content_types.xlsx": ("load", "CorruptArtifact", {}),
    "untyped_RuntimeError_zip_encrypted_flag_document_xml.docx": ("load", "CorruptArtifact", {}),
    "untyped_RecursionError_deep_json.json": ("load", "UnsupportedFormat", {}),
    "untyped_ValidationError_saved_tree.json": ("load", "CorruptArtifact", {}),
    "untyped_OverflowError_gsheets_color_inf.json": ("load", "any", {}),
    "untyped_OverflowError_gdocs_list_startNumber_inf.json": ("load", "UnsupportedFormat", {}),
    "untyped_OverflowError_gsheets_merge_index_inf.json": ("load", "UnsupportedFormat", {}),
    "untyped_OverflowError_gsheets_sheetId_inf.json": ("load", "UnsupportedFormat", {}),
    "untyped_OverflowError_gslides_nestingLevel_inf.json": ("load", "UnsupportedFormat", {}),
    "untyped_MemoryError_gsheets_merge_1e20_columns.json": ("load", "CorruptArtifact", {}),
    "untyped_TypeError_cassette_interactions_int.json": ("load", "UnsupportedFormat", {}),
    "untyped_AttributeError_cassette_interactions_str.json": ("load", "UnsupportedFormat", {}),
    "untyped_ValueError_cassette_status_code_str.json": ("load", "UnsupportedFormat", {}),
    "untyped_bundle_manifest_flipped_deflate.zip": ("load", "CorruptArtifact", {}),
    "untyped_bundle_manifest_deep.zip": ("load", "CorruptArtifact", {}),
    "untyped_bundle_doc_response_deep.zip": ("load", "CorruptArtifact", {}),
    "untyped_bundle_images_is_str.zip": ("load", "CorruptArtifact", {}),
    "untyped_bundle_drive_is_list.zip": ("load", "CorruptArtifact", {}),
    "untyped_bundle_drive_is_str.zip": ("load", "CorruptArtifact", {}),
    "untyped_bundle_warnings_is_int.zip": ("load", "CorruptArtifact", {}),
    "hang_gsheets_negative_column_index.json": ("load", "CorruptArtifact", {}),
    "hang_memory_gsheets_huge_rowcount.json": ("load", "ArtifactTooLarge", {}),
    # Loads: the 144 Mpx picture is kept unhashed (decode_error), within the 1.5 GB cap.
    "memory_3GB_60s_png_12000x12000_in_8KB.xlsx": ("load", None, {}),
    # The node budget refuses it; a low budget here keeps the test short (the default's
    # cost is measured by bench, not asserted).
    "memory_3GB_64s_3p9MB_slide_part_in_26KB.pptx": ("load", "ArtifactTooLarge", {"limits": "tree_nodes=3000"}),
    "cli_two_line_error_nul_char_message.docx": ("cli", "cli", {}),
    # Loads, and writes nothing outside its temp dir (the runner's TMPDIR is nested).
    "zipslip_bundle_file_id_traversal.zip": ("load", None, {}),
    "untyped_RecursionError_rubric_deep_flow.yaml": ("rubric", "RubricError", {}),
    "untyped_RecursionError_rubric_deep_children.json": ("rubric", "RubricError", {}),
    "untyped_ReaderError_rubric_control_char.yaml": ("rubric", "RubricError", {}),
    "hang_rubric_yaml_alias_bomb_step_params.yaml": ("rubric", "RubricError", {}),
    "hang_rubric_yaml_alias_bomb_description.yaml": ("rubric", "RubricError", {}),
    "untyped_ValueError_rubric_weight_inf_report_json.yaml": ("rubric", "RubricError", {}),
    "untyped_RecursionError_trace_deep.json": ("trace", "UnsupportedFormat", {}),
}
FOLDERS = {"hang_judge_blackhole", "leak_batch_interrupt", "leak_rubric_include_outside_folder",
           "lost_rows_batch_task_name_collision"}  # tested below
DECK = Path(__file__).resolve().parents[2] / "fixtures" / "pptx" / "deck.pptx"

pytestmark = pytest.mark.skipif(not FUZZ.is_dir(), reason=f"corpus not found at {CORPUS}")


@pytest.fixture(scope="module")
def runner() -> Iterator[Runner]:
    with Runner() as r:
        yield r


def _check(outcome: Outcome, expected: str | None) -> None:
    assert not outcome.leftovers, f"left in TMPDIR: {outcome.leftovers}"
    assert not outcome.escaped, f"written outside TMPDIR: {outcome.escaped}"
    assert not outcome.processes, "processes outlived the input"
    if expected is None:
        assert outcome.status == "ok", outcome
    elif expected == "any":
        assert outcome.status in ("ok", "typed"), outcome
    else:
        assert outcome.status == "typed" and outcome.error == expected, outcome
        assert "\n" not in outcome.message


def test_every_reproducer_is_classified() -> None:
    assert sorted(p.name for p in FUZZ.iterdir() if p.name != "README.md") == sorted([*LOADS, *FOLDERS])


@pytest.mark.parametrize("name", sorted(LOADS))
def test_reproducer(runner: Runner, name: str) -> None:
    op, expected, extra = LOADS[name]
    args = ["extract", str(FUZZ / name)] if op == "cli" else [str(FUZZ / name)]
    outcome = runner.run(Request(op, args, timeout=30, **extra))  # type: ignore[arg-type]
    _check(outcome, expected)
    if expected not in (None, "any", "cli"):
        assert name in outcome.message, "the error names the file"


def test_rubric_includes_outside_the_root(runner: Runner) -> None:
    folder = FUZZ / "leak_rubric_include_outside_folder"
    # Default root (the rubrics' parent): the fragment is inside it, but a step that is a
    # string is named by its type, never echoed.
    outcome = runner.run(Request("rubric", [str(folder / "rubrics" / "inc_outside_strings.yaml")]))
    _check(outcome, "RubricError")
    assert "SECRET" not in outcome.message and "hunter2" not in outcome.message
    # A root that excludes ../outside: refused before reading.
    for rubric in ("inc_outside_strings.yaml", "inc_outside_secret.yaml"):
        outcome = runner.run(Request("rubric", [str(folder / "rubrics" / rubric)], options={"root": str(folder / "rubrics")}))
        _check(outcome, "RubricError")
        assert "outside the rubric root" in outcome.message


def test_colliding_batch_names_are_refused() -> None:
    from artifactcheck.batch.run import read_manifest
    from artifactcheck.errors import ArtifactCheckError

    with pytest.raises(ArtifactCheckError, match="same report file"):
        read_manifest(FUZZ / "lost_rows_batch_task_name_collision" / "collide.csv")


def test_a_silent_judge_ends_at_the_check_deadline(runner: Runner) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held: list[socket.socket] = []

    def accept() -> None:  # accept and never answer, like the campaign's black hole
        while True:
            try:
                held.append(listener.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    port = listener.getsockname()[1]
    try:
        outcome = runner.run(Request(
            "score", [str(DECK), str(FUZZ / "hang_judge_blackhole" / "judge.yaml")], timeout=30, limits="judge_seconds=2",
            env={"ARTIFACTCHECK_JUDGE_URL": f"http://127.0.0.1:{port}/v1", "ARTIFACTCHECK_JUDGE_MODEL": "m"}))
    finally:
        listener.close()
        for conn in held:
            conn.close()
    _check(outcome, None)
    assert outcome.error == "evaluator_error" and "deadline" in outcome.message
    assert outcome.seconds < 15
