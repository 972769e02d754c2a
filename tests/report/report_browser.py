"""Headless Debian chromium for HTML report tests: a DOM dump after scripts ran, and a
screenshot, each with a fresh profile and no network chatter."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

WINDOW = (1280, 2400)


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _run(html: Path, *mode: str) -> subprocess.CompletedProcess[str]:
    exe = chromium()
    assert exe is not None
    with tempfile.TemporaryDirectory(prefix="ac-chromium-") as profile:
        args = [
            exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--no-first-run", "--disable-sync", f"--user-data-dir={profile}",
            "--force-device-scale-factor=1", f"--window-size={WINDOW[0]},{WINDOW[1]}", "--hide-scrollbars",
            *mode, html.resolve().as_uri(),
        ]
        return subprocess.run(args, capture_output=True, text=True, timeout=90, check=True)


def dump_dom(html: Path) -> str:
    return _run(html, "--virtual-time-budget=1000", "--dump-dom").stdout


def screenshot(html: Path, png: Path) -> Path:
    _run(html, f"--screenshot={png}")
    return png
