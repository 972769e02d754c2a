"""A rubric is input too: what it may read (includes, reference images inside a rubric
root), how much it may cost (nesting, aliases, file size), and what errors may show
(never the content of a file outside the rubric). design/safe-loading.md."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from artifactcheck import score
from artifactcheck.commands import parse_params
from artifactcheck.errors import RubricError
from artifactcheck.limits import use_limits
from artifactcheck.rubric.loader import load_rubric
from tests.conftest import FIXTURES

TASKS = FIXTURES / "tasks"
SECRET = "SECRET-TOKEN-5678 password=hunter2"


def _tree(tmp_path: Path) -> Path:
    """tmp/outside/secret.yaml, tmp/rubrics/task/rubric.yaml: the default root of the
    rubric is tmp/rubrics, so tmp/outside is out of reach."""
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.yaml").write_text(f"steps:\n  - {SECRET}\n")
    (tmp_path / "outside" / "fragment.yaml").write_text("steps:\n  - {id: x, step_type: content, check: text_contains, params: {phrases: [a]}}\n")
    task = tmp_path / "rubrics" / "task"
    task.mkdir(parents=True)
    return task


def _rubric(task: Path, include: str) -> Path:
    path = task / "rubric.yaml"
    path.write_text(f"task: t\nsteps:\n  - include: {include}\n")
    return path


@pytest.mark.parametrize("include", ["../../outside/secret.yaml", "../../outside/fragment.yaml", "ABS", "../../outside/missing.yaml"])
def test_includes_outside_the_root_are_refused_unread(tmp_path: Path, include: str) -> None:
    task = _tree(tmp_path)
    if include == "ABS":
        include = str(tmp_path / "outside" / "secret.yaml")
    with pytest.raises(RubricError, match="resolves outside the rubric root") as caught:
        load_rubric(_rubric(task, include))
    assert SECRET not in str(caught.value)
    assert "not found" not in str(caught.value)  # no existence oracle either


def test_a_param_cannot_steer_an_include_out(tmp_path: Path) -> None:
    task = _tree(tmp_path)
    path = task / "rubric.yaml"
    path.write_text("task: t\nparams: {frag: ok.yaml}\nsteps:\n  - include: ${frag}\n")
    with pytest.raises(RubricError, match="outside the rubric root"):
        load_rubric(path, params={"frag": "../../outside/fragment.yaml"})


def test_a_symlink_inside_the_root_pointing_out_is_refused(tmp_path: Path) -> None:
    task = _tree(tmp_path)
    os.symlink(tmp_path / "outside" / "fragment.yaml", task / "link.yaml")
    with pytest.raises(RubricError, match="outside the rubric root"):
        load_rubric(_rubric(task, "link.yaml"))


def test_an_explicit_root_widens_or_narrows(tmp_path: Path) -> None:
    task = _tree(tmp_path)
    rubric = _rubric(task, "../../outside/fragment.yaml")
    assert [s.id for s in load_rubric(rubric, root=tmp_path).iter_steps()] == ["x"]
    with pytest.raises(RubricError, match="outside the rubric root"):
        load_rubric(TASKS / "reference_list" / "rubric.yaml", root=TASKS / "reference_list")


def test_bundled_task_rubrics_still_load_with_their_shared_fragments() -> None:
    for rubric in sorted(TASKS.glob("*/rubric.yaml")):
        assert load_rubric(rubric).steps


def test_steps_of_the_wrong_type_are_not_echoed(tmp_path: Path) -> None:
    path = tmp_path / "rubric.yaml"
    path.write_text(f"task: t\nsteps:\n  - {SECRET}\n")
    with pytest.raises(RubricError, match="got a str") as caught:
        load_rubric(path)
    assert SECRET not in str(caught.value)


def test_reference_images_must_stay_inside_the_root_or_the_assets(tmp_path: Path) -> None:
    from artifactcheck.checks.image.match import load_reference
    from artifactcheck.checks.registry import Resources

    (tmp_path / "root" / "assets").mkdir(parents=True)
    resources = Resources(assets_dir=str(tmp_path / "root" / "assets"), rubric_root=str(tmp_path / "root"))
    for name in ("/etc/passwd", "../../x.png", "/dev/zero"):
        with pytest.raises(FileNotFoundError, match="resolves outside"):
            load_reference(name, resources)


def test_reference_outside_the_root_scores_as_an_evaluator_error(tmp_path: Path) -> None:
    rubric = tmp_path / "tasks" / "t" / "rubric.yaml"
    rubric.parent.mkdir(parents=True)
    rubric.write_text("task: t\nsteps:\n  - {id: logo, step_type: visual, check: image_matches, params: {reference: /etc/hostname}}\n")
    report = score(TASKS / "formal_letter" / "pass.docx", rubric, load_options={"render": False})
    (step,) = report.steps
    assert step.outcome == "error" and "resolves outside" in (step.explanation or "")


# -- costs: size, nesting, aliases, control characters --------------------------------


@pytest.mark.parametrize(("text", "message"), [
    ("task: t\nsteps: " + "[" * 3000 + "]" * 3000 + "\n", "nest deeper than 200"),
    ("task: t\ndescription: a\x01b\nsteps: []\n", "unacceptable character #x0001"),
    (("a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
     "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"),
     "expands .through YAML aliases. to more than 100000 values"),
    ("a: &a [1, *a]\n", "alias"),
])
def test_costly_rubric_files_are_refused(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "rubric.yaml"
    path.write_bytes(text.encode())
    with pytest.raises(RubricError, match=message):
        load_rubric(path)


def test_aliases_within_the_budget_still_work(tmp_path: Path) -> None:
    path = tmp_path / "rubric.yaml"
    path.write_text("task: t\nsteps:\n  - &s {id: a, step_type: content, check: text_contains, params: {phrases: [x]}}\n"
                    "  - {id: b, step_type: content, check: text_contains, params: {phrases: [x]}}\n")
    assert len(load_rubric(path).steps) == 2


def test_rubric_files_must_be_small_regular_files(tmp_path: Path) -> None:
    with pytest.raises(RubricError, match="not a regular file"):
        load_rubric("/dev/zero")
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    with pytest.raises(RubricError, match="not a regular file"):
        load_rubric(fifo)
    big = tmp_path / "big.yaml"
    big.write_text("task: t\n" + "#" * 5000 + "\n")
    with use_limits(input_file_bytes=1000), pytest.raises(RubricError, match="limit 1000 bytes"):
        load_rubric(big)


def test_weights_must_be_finite(tmp_path: Path) -> None:
    path = tmp_path / "rubric.yaml"
    path.write_text("task: t\nsteps:\n  - {id: a, step_type: content, check: text_contains, params: {phrases: [x]}, weight: .inf}\n")
    with pytest.raises(RubricError, match="finite"):
        load_rubric(path)


@pytest.mark.parametrize(("pair", "message"), [
    ("recipient=[1", "not a YAML scalar"),
    ("recipient=!!python/object/apply:os.system ['id']", "could not determine a constructor"),
    ("x=&a [*a]", "alias"),
    ("x=" + "[" * 500 + "]" * 500, "nest deeper"),
])
def test_param_values_are_bounded_yaml(pair: str, message: str) -> None:
    with pytest.raises(RubricError, match=message):
        parse_params([pair])
    assert parse_params(["n=3", "s=two words", "l=[1, 2]"]) == {"n": 3, "s": "two words", "l": [1, 2]}
