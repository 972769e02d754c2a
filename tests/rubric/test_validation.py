"""Mistakes in rubrics are caught when the rubric is loaded or built, at their line, with
the nearest names: bad selectors (wherever a parameter holds one), unknown checks and
parameters, wrong types; in YAML and in the Python builders alike. Leaves may omit
``step_type``."""

from __future__ import annotations

import inspect
import textwrap
from pathlib import Path

import pytest
from rubric_docs import letter_doc

from artifactcheck import run_check
from artifactcheck.checks.examples import tiny_doc
from artifactcheck.errors import RubricError
from artifactcheck.rubric import check, group, load_rubric, rubric, score


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "r.yaml"
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def one_step(params: str, check_name: str = "exists") -> str:
    return f"""
        task: t
        steps:
          - id: s
            check: {check_name}
            params:
              {params}
        """


@pytest.mark.parametrize(
    ("check_name", "params", "line", "words"),
    [
        # selectors, as a plain string, inside a Target object, in other selector parameters
        ("exists", "target: imge", 6, "parameter 'target.selector' of check 'exists': unknown node kind 'imge' in selector 'imge'; did you mean 'image'?"),
        ("exists", "target:\n                selector: \"paragraph[heading_levle='1']\"", 7, "no node has an attribute 'heading_levle'"),
        ("exists", "target: \"run[heading_level='1']\"", 6, "run nodes have no attribute 'heading_level'"),
        ("exists", "target: \"paragraph[[\"", 6, "cannot parse selector 'paragraph[['"),
        # a value no node can hold: sheet columns are numbers, not letters
        ("count", "target: \"cell[col='C']\"\n              exactly: 5", 6, "col is a number (sheet columns count from 1: write [col='3'] for column C)"),
        ("exists", "target: p.title", 6, "unknown node kind 'p'"),
        # words for things that are not kinds: what finds them, not a look-alike kind
        ("exists", "target: title", 6, "'title' is not a node kind (selector 'title'); use shape[placeholder_type='title']"),
        ("format_is", "target: heading\n              bold: true", 6, "'heading' is not a node kind (selector 'heading'); use paragraph[heading_level]"),
        ("exists", "target: paragraph.title", 6, "class selector '.title'"),
        ("count_each", "each: slyde\n              target: image\n              exactly: 1", 6, "unknown node kind 'slyde' in selector 'slyde'; did you mean 'slide'?"),
        ("position", "target: paragraph\n              among: paragraph\n              container: \"sheet cel\"", 8, "did you mean 'cell'?"),
        # unknown and missing parameters, wrong types
        ("in_region", "target: image\n              regoin: upper-left", 7, "check 'in_region' has no parameter 'regoin'; did you mean 'region'?"),
        ("exists", "target:\n                selectr: image", 7, "check 'exists' has no parameter 'target.selectr'; did you mean 'selector'?"),
        ("format_is", "target: run\n              size: twelve", 7, "parameter 'size' of check 'format_is': Input should be a valid number"),
        ("exists", "target:\n                selector: run\n                nth: first", 8, "parameter 'target.nth' of check 'exists': Input should be a valid integer"),
        ("count", "exactly: 2", 5, "check 'count' needs parameter 'target'"),  # the params line
    ],
)
def test_yaml_mistakes_name_their_line(tmp_path: Path, check_name: str, params: str, line: int, words: str) -> None:
    path = write(tmp_path, one_step(params, check_name))
    with pytest.raises(RubricError) as info:
        load_rubric(path)
    message = str(info.value)
    assert words in message and f"{path}: line {line}: step 's'" in message, message
    assert info.value.line == line


def test_an_unknown_check_is_named_with_the_nearest(tmp_path: Path) -> None:
    with pytest.raises(RubricError, match="unknown check 'text_contain'; did you mean 'text_contains'") as info:
        load_rubric(write(tmp_path, one_step("phrases: [a]", "text_contain")))
    assert info.value.line == 4


def test_a_good_selector_loads(tmp_path: Path) -> None:
    good = "target: \"footer run[field='PAGE'], sheet[frozen_rows='1'], cell[number_format*='%']\""
    assert load_rubric(write(tmp_path, one_step(good))).leaves()[0].check == "exists"


def here() -> int:
    """The line of the caller (the line a builder call starts on)."""
    frame = inspect.currentframe()
    assert frame is not None and frame.f_back is not None
    return frame.f_back.f_lineno


def test_builders_raise_at_the_line_of_the_call() -> None:
    with pytest.raises(RubricError) as info:
        line = here(); check("logo", "in_region", {"target": "imge", "region": "upper-left"})
    assert (info.value.path, info.value.line) == (__file__, line)
    assert "unknown node kind 'imge'" in str(info.value) and "did you mean 'image'" in str(info.value)
    with pytest.raises(RubricError, match="has no parameter 'regoin'; did you mean 'region'") as info:
        line = here(); check("logo", "in_region", {"target": "image", "regoin": "upper-left"})
    assert info.value.line == line
    with pytest.raises(RubricError, match="unknown check 'in_regoin'; did you mean 'in_region'"):
        check("logo", "in_regoin", {})
    with pytest.raises(RubricError, match="Input should be a valid number"):
        check("big", "format_is", {"target": "run", "size": "twelve"})


def test_whole_rubric_errors_point_at_the_step_builder_call() -> None:
    first = check("a", "exists", {"target": "image"})
    line = here(); second = check("a", "exists", {"target": "table"})
    with pytest.raises(RubricError, match="duplicate step id 'a'") as info:
        rubric("t", [first, second])
    assert (info.value.path, info.value.line) == (__file__, line)
    with pytest.raises(RubricError, match="requires unknown step 'logo'; did you mean 'log'"):
        rubric("t", [check("log", "exists", {"target": "image"}), check("b", "exists", {"target": "table"}, requires=["logo"])])


def test_run_check_with_a_misspelt_name_raises() -> None:
    with pytest.raises(RubricError, match="unknown check 'format_iss'; did you mean 'format_is'"):
        run_check("format_iss", tiny_doc(), {"target": "run", "bold": True})
    # bad parameters remain a result: the check could not judge
    assert run_check("exists", tiny_doc(), {"target": "imge"}).status == "error"


# -- step types -------------------------------------------------------------------------
STEP_TYPES = """
task: t
steps:
  - {id: own, step_type: information_retrieval, check: exists, params: {target: paragraph}}
  - id: grouped
    step_type: content
    children:
      - {id: inherits, check: in_region, params: {target: paragraph, region: upper-left}}
  - {id: derived_spatial, check: in_region, params: {target: paragraph, region: upper-left}}
  - {id: derived_formatting, check: format_is, params: {target: run, bold: true}}
  - {id: derived_structural, check: exists, params: {target: paragraph}}
"""


def test_a_leaf_takes_its_own_then_its_groups_then_its_checks_step_type(tmp_path: Path) -> None:
    report = score(letter_doc(), write(tmp_path, STEP_TYPES))
    types = {s.id: s.step_type for s in report.steps}
    assert types == {
        "own": "information_retrieval",
        "inherits": "content",
        "derived_spatial": "spatial",
        "derived_formatting": "formatting",
        "derived_structural": "structural",
    }


def test_builders_may_omit_step_types_too() -> None:
    built = rubric("t", [check("a", "exists", {"target": "paragraph"}), group("g", [check("b", "in_region", {"target": "paragraph", "region": "upper-left"})])])
    report = score(letter_doc(), built)
    assert [s.step_type for s in report.steps] == ["structural", "spatial"]
