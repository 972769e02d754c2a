"""Start-up stays light (design/startup.md): what a command imports before any work, checked
structurally in fresh interpreters (sys.modules), never by timing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import artifactcheck

HEAVY = ("scipy", "shapely", "coloraide", "jsonschema", "httpx", "fastapi", "numpy", "PIL", "imagehash", "skimage", "pywt", "pypdfium2")
"""Libraries only some checks, extractors or commands need: imported where first needed."""


def imported_after(code: str) -> set[str]:
    """Top-level packages in sys.modules after ``code`` runs in a fresh interpreter."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_importing_the_cli_pulls_in_no_heavy_library() -> None:
    loaded = imported_after("import artifactcheck.cli")
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))
    assert "pydantic" not in loaded and "lxml" not in loaded  # not even the model, for --help


def test_help_pulls_in_no_heavy_library() -> None:
    code = "import sys\nsys.argv = ['artifactcheck', '--help']\nfrom artifactcheck.cli import main\ntry:\n    main()\nexcept SystemExit:\n    pass"
    loaded = imported_after(code)
    assert not loaded & {*HEAVY, "rich"}, sorted(loaded & {*HEAVY, "rich"})


def test_registering_every_check_pulls_in_no_heavy_library() -> None:
    """The registry imports every check module to fill itself: a module must defer its
    heavy imports to the check function that needs them."""
    loaded = imported_after("from artifactcheck.checks.registry import all_checks\nassert len(all_checks()) > 40")
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


@pytest.mark.parametrize("name", artifactcheck.__all__)
def test_the_public_api_is_there_on_first_use(name: str) -> None:
    assert getattr(artifactcheck, name) is not None
    assert name in dir(artifactcheck)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'lod'"):
        artifactcheck.lod  # noqa: B018
    from artifactcheck.extractors import render

    with pytest.raises(AttributeError, match="no attribute 'render_pfd'"):
        render.render_pfd  # noqa: B018
    assert callable(render.render_pdf) and callable(render.align_text_to_layout)


DECK = Path(__file__).resolve().parents[1] / "fixtures" / "tasks" / "slide_deck"
HASHERS = {"imagehash", "scipy", "pywt"}


def imported_modules_after(code: str) -> set[str]:
    """Every module name in sys.modules after ``code`` runs in a fresh interpreter."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_loading_a_deck_with_a_picture_does_not_import_the_hashers() -> None:
    """Perceptual hashes are computed on first read (model/blobs.py), not at load."""
    load = f"from artifactcheck import load\ndoc = load({str(DECK / 'pass.pptx')!r})\nassert doc.blobs"
    assert not imported_after(load) & HASHERS
    assert HASHERS <= imported_after(f"{load}\nassert next(iter(doc.blobs.values())).phash")
    assert HASHERS <= imported_after(f"{load}\nassert '\"phash\": \"' in doc.to_json()")


def test_scoring_imports_only_the_checks_its_rubric_names() -> None:
    """A rubric of geometric and tree checks imports neither the hashers, nor the render
    pool's XML-RPC, nor the modules of checks it does not name (checks/_index.py)."""
    code = (
        "from artifactcheck.rubric.scoring import score\n"
        f"assert score({str(DECK / 'pass.pptx')!r}, {str(DECK / 'rubric.yaml')!r}).verdict == 'PASS'"
    )
    loaded = imported_modules_after(code)
    assert not {m.split(".")[0] for m in loaded} & (HASHERS | {"xmlrpc"})
    assert "artifactcheck.checks.geometry" in loaded
    others = {m for m in loaded if m.startswith(("artifactcheck.checks.image", "artifactcheck.checks.compare", "artifactcheck.checks.text"))}
    assert not others, sorted(others)


def test_loading_an_office_file_skips_the_other_zip_formats_tests() -> None:
    """A .pptx (content types, no ``mimetype`` member) is not asked whether it is a
    snapshot bundle, an OpenDocument package or an EPUB (loading._plainly_ooxml)."""
    loaded = imported_modules_after(f"from artifactcheck import load\nload({str(DECK / 'pass.pptx')!r})")
    assert not loaded & {"artifactcheck.snapshot", "artifactcheck.extractors.epub.package",
                         "artifactcheck.extractors.package.opendocument"}
