"""Rubric files: validation errors carry the file and line; includes and parameters;
the committed JSON Schema is current and enforced."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import jsonschema
import pytest

from artifactcheck.errors import ArtifactCheckError, RubricError
from artifactcheck.rubric import Rubric, load_rubric
from artifactcheck.rubric.schema import SCHEMA_PATH, render_schema


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


GOOD = """
task: t1
steps:
  - id: logo
    step_type: spatial
    critical: true
    check: in_region
    params: {target: image, region: upper-left}
  - id: layout
    step_type: spatial
    strategy: sequential
    children:
      - id: title
        check: in_region
        params: {target: paragraph, region: top 20%}
"""


def test_a_good_rubric_loads(tmp_path: Path) -> None:
    rubric = load_rubric(write(tmp_path, "r.yaml", GOOD))
    assert [s.id for s in rubric.iter_steps()] == ["logo", "layout", "title"]
    assert rubric.steps[0].critical is True


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (GOOD.replace("critical: true", "critcal: true"), 5, ["unknown key 'critcal'", "did you mean 'critical'"]),
        (GOOD.replace("strategy: sequential", "stratgy: sequential"), 10, ["unknown key 'stratgy'"]),
        (GOOD + "colour: red\n", 15, ["unknown key 'colour' in rubric"]),
        (GOOD.replace("check: in_region\n        params: {target: paragraph", "check: in_regoin\n        params: {target: paragraph"), 13, ["unknown check 'in_regoin'", "did you mean 'in_region'"]),
        (GOOD.replace("region: upper-left", "regoin: upper-left"), 7, ["check 'in_region' has no parameter 'regoin'", "did you mean 'region'?"]),
        (GOOD.replace("step_type: spatial\n    critical", "step_type: spacial\n    critical"), 4, ["step_type"]),
        (GOOD.replace("id: title", "id: logo"), 12, ["duplicate step id 'logo'"]),
        (GOOD.replace("  - id: layout", "  - id: layout\n    requires: [nothing]"), 9, ["requires unknown step 'nothing'"]),
        (GOOD.replace("    critical: true\n", "    critical: true\n    critical: false\n"), 6, ["duplicate key 'critical'"]),
        (GOOD.replace("params: {target: image, region: upper-left}", "params: {target: image, region: [upper-left}"), 7, ["not valid YAML"]),
    ],
)
def test_errors_name_the_file_and_line(tmp_path: Path, text: str, line: int, words: list[str]) -> None:
    path = write(tmp_path, "r.yaml", text)
    with pytest.raises(RubricError) as info:
        load_rubric(path)
    message = str(info.value)
    assert info.value.line == line, message
    assert str(path) in message and f"line {line}" in message
    for word in words:
        assert word in message
    assert isinstance(info.value, ArtifactCheckError)


def test_a_requirement_must_come_earlier(tmp_path: Path) -> None:
    text = GOOD.replace("    critical: true\n", "    critical: true\n    requires: [title]\n")
    with pytest.raises(RubricError, match="comes later"):
        load_rubric(write(tmp_path, "r.yaml", text))


def test_critical_means_nothing_under_points(tmp_path: Path) -> None:
    text = GOOD.replace("task: t1\n", "task: t1\naggregation: points\n")
    with pytest.raises(RubricError, match="critical has no meaning") as info:
        load_rubric(write(tmp_path, "r.yaml", text))
    assert info.value.line == 6


def test_a_leaf_may_omit_its_step_type(tmp_path: Path) -> None:
    # the group 'layout' no longer states one: its leaf takes its check's default
    text = GOOD.replace("    step_type: spatial\n    strategy", "    strategy")
    loaded = load_rubric(write(tmp_path, "r.yaml", text))
    assert loaded.steps[1].step_type is None  # resolved when the rubric runs (test_runner)


def test_json_rubrics_get_lines_too(tmp_path: Path) -> None:
    data = {"task": "t", "steps": [{"id": "a", "step_type": "content", "check": "in_region", "params": {"target": "image", "region": "upper-left"}, "wieght": 2}]}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    with pytest.raises(RubricError, match="unknown key 'wieght'.*did you mean 'weight'") as info:
        load_rubric(path)
    assert info.value.line == 12


def test_a_wrong_type_is_located_by_the_schema(tmp_path: Path) -> None:
    text = GOOD.replace("critical: true", "critical: true\n    weight: heavy")
    with pytest.raises(RubricError, match="weight") as info:
        load_rubric(write(tmp_path, "r.yaml", text))
    assert info.value.line == 6


FRAGMENT = """
params:
  region: upper-left
steps:
  - id: ${name}_placed
    description: ${name} is in the ${region}
    step_type: spatial
    check: in_region
    params: {target: "${selector}", region: "${region}"}
  - id: ${name}_count
    step_type: structural
    weight: ${points}
    check: in_region
    params: {target: "${selector}", region: "${region}", min_fraction: "${fraction}"}
"""


def instance(name: str, region: str | None = None) -> str:
    extra = f", region: {region}" if region else ""
    return f"""
task: letter-{name}
params:
  points: 3
steps:
  - include: fragments/placed.yaml
    params: {{name: {name}, selector: "image", fraction: 0.5{extra}}}
"""


def test_five_instances_share_one_fragment(tmp_path: Path) -> None:
    write(tmp_path, "fragments/placed.yaml", FRAGMENT)
    rubrics = [load_rubric(write(tmp_path, f"task{i}.yaml", instance(f"n{i}", "lower-right" if i == 4 else None))) for i in range(5)]
    assert [r.task for r in rubrics] == [f"letter-n{i}" for i in range(5)]
    first = rubrics[0].leaves()
    assert [s.id for s in first] == ["n0_placed", "n0_count"]
    assert first[0].description == "n0 is in the upper-left"
    assert first[1].weight == 3.0  # a whole-string placeholder keeps the number type
    assert first[1].params["min_fraction"] == 0.5
    assert rubrics[4].leaves()[0].params["region"] == "lower-right"  # include params beat defaults


def test_command_line_params_override_file_params(tmp_path: Path) -> None:
    write(tmp_path, "fragments/placed.yaml", FRAGMENT)
    rubric = load_rubric(write(tmp_path, "task.yaml", instance("x")), params={"points": 5})
    assert rubric.leaves()[1].weight == 5.0
    assert rubric.params["points"] == 5


def test_an_undefined_parameter_is_an_error_in_the_fragment(tmp_path: Path) -> None:
    fragment = write(tmp_path, "fragments/placed.yaml", FRAGMENT)
    path = write(tmp_path, "task.yaml", instance("x").replace(', fraction: 0.5', ''))
    with pytest.raises(RubricError, match=r"parameter \$\{fraction\} is not defined") as info:
        load_rubric(path)
    assert info.value.path == str(fragment.resolve()) and info.value.line == 13


def test_unknown_keys_in_fragments_and_includes(tmp_path: Path) -> None:
    write(tmp_path, "fragments/placed.yaml", FRAGMENT.replace("    weight:", "    wieght:"))
    with pytest.raises(RubricError, match="unknown key 'wieght'") as info:
        load_rubric(write(tmp_path, "task.yaml", instance("x")))
    assert info.value.line == 11 and info.value.path is not None and info.value.path.endswith("placed.yaml")
    write(tmp_path, "fragments/placed.yaml", FRAGMENT)
    with pytest.raises(RubricError, match="unknown key 'with' in include") as info:
        load_rubric(write(tmp_path, "task2.yaml", instance("x").replace("    params: {name", "    with: {name")))
    assert info.value.line == 6


def test_include_cycles_are_refused(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "steps:\n  - include: b.yaml\n")
    write(tmp_path, "b.yaml", "steps:\n  - include: a.yaml\n")
    with pytest.raises(RubricError, match="include cycle"):
        load_rubric(write(tmp_path, "task.yaml", "task: t\nsteps:\n  - include: a.yaml\n"))


def test_a_dollar_dollar_brace_is_a_literal(tmp_path: Path) -> None:
    text = GOOD.replace("task: t1\n", "task: t1\ndescription: costs $${price}\n")
    assert load_rubric(write(tmp_path, "r.yaml", text)).description == "costs ${price}"


def test_missing_file_and_non_mapping(tmp_path: Path) -> None:
    with pytest.raises(RubricError, match="cannot read"):
        load_rubric(tmp_path / "absent.yaml")
    with pytest.raises(RubricError, match="must be a mapping"):
        load_rubric(write(tmp_path, "list.yaml", "- a\n- b\n"))


def test_the_committed_schema_is_current() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == render_schema(), (
        "rubric.schema.json is stale: run python -m artifactcheck.rubric.schema"
    )


def test_the_schema_rejects_unknown_keys_and_accepts_a_rubric(tmp_path: Path) -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    good = load_rubric(write(tmp_path, "r.yaml", GOOD)).model_dump(mode="json", exclude_defaults=True)
    jsonschema.validate(good, schema)
    bad = json.loads(json.dumps(good))
    bad["steps"][0]["colour"] = "red"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_a_rubric_round_trips_through_json(tmp_path: Path) -> None:
    rubric = load_rubric(write(tmp_path, "r.yaml", GOOD))
    path = tmp_path / "r.json"
    path.write_text(rubric.model_dump_json(indent=2), encoding="utf-8")
    assert load_rubric(path) == rubric
    assert Rubric.model_validate_json(path.read_text()) == rubric


@pytest.mark.parametrize(
    ("steps", "line", "words"),
    [
        ("  - {check: in_region, step_type: content, params: {target: p, region: top}}\n", 3, "'id' is a required property"),
        ("  - just a string\n", 3, "a step must be a mapping"),
        ("  - {id: a, step_type: content, children: []}\n", 3, "neither a check nor children"),
        ("  - id: g\n    step_type: content\n    children:\n      - {id: x, check: in_region, weight: heavy}\n", 6, "step 'x' weight: 'heavy' is not of type 'number'"),
    ],
)
def test_malformed_steps_say_what_is_wrong(tmp_path: Path, steps: str, line: int, words: str) -> None:
    with pytest.raises(RubricError) as info:
        load_rubric(write(tmp_path, "r.yaml", "task: t\nsteps:\n" + steps))
    assert info.value.line == line and words in str(info.value) and "any of the given schemas" not in str(info.value)


def test_a_rubric_that_passed_the_schema_is_not_validated_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scoring many artifacts with one rubric pays jsonschema once (schema_verdicts.py):
    the second load, in a fresh process, does not import it; a failing rubric is never
    remembered, so its error stays jsonschema's each time."""
    import subprocess
    import sys

    cache = tmp_path / "cache"
    monkeypatch.setenv("ARTIFACTCHECK_CACHE_DIR", str(cache))
    good = write(tmp_path, "good.yaml", GOOD)
    probe = f"import sys\nfrom artifactcheck.rubric import load_rubric\nload_rubric({str(good)!r})\nprint('jsonschema' in sys.modules)"

    def fresh_load() -> str:
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
        return done.stdout.strip().splitlines()[-1]

    assert fresh_load() == "True" and len(list((cache / "rubric-valid").iterdir())) == 1
    assert fresh_load() == "False"
    # The same text with another value is another rubric: validated, then remembered.
    write(tmp_path, "good.yaml", GOOD.replace("critical: true", "critical: false"))
    assert fresh_load() == "True" and len(list((cache / "rubric-valid").iterdir())) == 2

    bad = write(tmp_path, "bad.yaml", GOOD.replace("critical: true", "critical: true\n    weight: heavy"))
    for _ in range(2):
        with pytest.raises(RubricError, match="weight") as info:
            load_rubric(bad)
        assert info.value.line == 6
    assert len(list((cache / "rubric-valid").iterdir())) == 2  # the two good ones only


def test_a_value_json_cannot_tell_apart_gets_no_verdict_key() -> None:
    import datetime

    from artifactcheck.rubric.schema_verdicts import verdict_key

    assert verdict_key({"task": "t", "steps": [], "n": 1}) is not None
    assert verdict_key({"task": "t", "n": 1}) != verdict_key({"task": "t", "n": 1.0}) != verdict_key({"task": "t", "n": True})
    assert verdict_key({"task": "t", "when": datetime.date(2024, 1, 2)}) is None
    assert verdict_key({"task": "t", "keys": {1: "a"}}) is None
    assert verdict_key({"task": "t", "x": float("nan")}) is None
