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


@pytest.mark.slow
def test_readme_regression_test_example_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Regression tests for your own evaluators\s.*?```python\n(.*?)```", text, re.DOTALL)
    assert block, "README lost its regression-test example"
    monkeypatch.chdir(REPO)
    namespace: dict[str, object] = {}
    exec(compile(block.group(1), "README.md", "exec"), namespace)  # noqa: S102 - our own README
    tests = [value for name, value in namespace.items() if name.startswith("test_") and callable(value)]
    assert len(tests) == 2
    for test in tests:
        test()
    # and they can fail: the same helper on the failing letter with the passing expectation
    with pytest.raises(AssertionError, match="logo_upper_left: expected pass, got fail"):
        namespace["assert_scores"](  # type: ignore[operator]
            "fixtures/tasks/formal_letter/fail_logo_right.docx",
            "fixtures/tasks/formal_letter/rubric.yaml",
            {"verdict": "PASS", "logo_upper_left": "pass"},
        )
