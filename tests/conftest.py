"""Shared test fixtures: where the real-document corpus and our fixtures live."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# CI runs on a loaded 2-core machine: no per-example deadline (timing is not what these
# properties test) and a derandomized search, so a green run is reproducible. Locally the
# search stays random and keeps finding new cases.
settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "fixtures"
CORPUS = Path(os.environ.get("ARTIFACTCHECK_CORPUS", REPO.parent / "shared" / "corpus"))


def corpus_files(folder: str, *suffixes: str) -> list[Path]:
    """Files of one corpus folder (empty when the corpus is absent: tests then skip)."""
    base = CORPUS / folder
    if not base.is_dir():
        return []
    return sorted(p for p in base.iterdir() if p.is_file() and (not suffixes or p.suffix in suffixes))


def corpus_file(folder: str, name: str) -> Path:
    """One corpus file; the calling test is skipped when it is absent."""
    path = CORPUS / folder / name
    if not path.is_file():
        pytest.skip(f"corpus file {folder}/{name} not found")
    return path


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS}")
    return CORPUS


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    return FIXTURES
