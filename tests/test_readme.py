"""The README's Python example runs and says what the README claims."""

from __future__ import annotations

import contextlib
import io
import re

import pytest

from tests.conftest import REPO


@pytest.mark.slow
def test_readme_example_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## 30 seconds\s+```python\n(.*?)```", text, re.DOTALL)
    assert block, "README lost its 30-second example"
    monkeypatch.chdir(REPO)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block.group(1), "README.md", "exec"), {})  # noqa: S102 - our own README
    lines = out.getvalue().splitlines()
    assert lines[1].startswith("pass 1.0"), lines
    assert lines[-1] == "PASS 1.0", lines
