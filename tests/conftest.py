"""Shared test fixtures: where the real-document corpus and our fixtures live."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "fixtures"
CORPUS = Path(os.environ.get("ARTIFACTCHECK_CORPUS", REPO.parent / "shared" / "corpus"))


def corpus_files(folder: str, *suffixes: str) -> list[Path]:
    """Files of one corpus folder (empty when the corpus is absent: tests then skip)."""
    base = CORPUS / folder
    if not base.is_dir():
        return []
    return sorted(p for p in base.iterdir() if p.is_file() and (not suffixes or p.suffix in suffixes))


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS}")
    return CORPUS


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    return FIXTURES
