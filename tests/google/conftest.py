"""Fixtures for the Google adapters: recorded-shaped responses (fixtures/google), the real
responses of the corpus, and googleapiclient's own HTTP mocks serving them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from googleapiclient.http import HttpMockSequence

from tests.conftest import FIXTURES

GOOGLE = FIXTURES / "google"
LOGO_URL = "https://lh3.googleusercontent.com/fixture-logo-128x64"
CHART_URL = "https://lh3.googleusercontent.com/fixture-chart"


def fixture_json(name: str) -> dict[str, Any]:
    return json.loads((GOOGLE / name).read_text(encoding="utf-8"))


def ok(body: Any, *, content_type: str = "application/json") -> tuple[dict[str, str], bytes | str]:
    """One 200 response for HttpMockSequence."""
    data = json.dumps(body) if not isinstance(body, (bytes, str)) else body
    return ({"status": "200", "content-type": content_type}, data)


def error(status: int, message: str, reason: str = "") -> tuple[dict[str, str], str]:
    body = {"error": {"code": status, "message": message, "errors": [{"reason": reason or "notFound", "message": message}]}}
    return ({"status": str(status), "content-type": "application/json"}, json.dumps(body))


def drive_meta(file_id: str, mime: str, name: str = "fixture") -> tuple[dict[str, str], str]:
    return ok({"id": file_id, "name": name, "mimeType": mime, "modifiedTime": "2024-01-01T00:00:00.000Z", "version": "7", "trashed": False})  # type: ignore[return-value]


def mock_http(*responses: tuple[dict[str, str], Any]) -> HttpMockSequence:
    return HttpMockSequence(list(responses))


@pytest.fixture(scope="session")
def logo_png() -> bytes:
    return (GOOGLE / "logo.png").read_bytes()


def no_sleep(_seconds: float) -> None:
    """Retries in tests do not wait (googleapiclient's backoff is real time otherwise)."""


__all__ = ["CHART_URL", "GOOGLE", "LOGO_URL", "Path", "drive_meta", "error", "fixture_json", "mock_http", "no_sleep", "ok"]
