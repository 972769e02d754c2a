"""``setting_is`` over a registrymodifications.xcu shaped like LibreOffice 7 writes it
(one ``item`` per line, set members as ``node``s, list values as ``it``s), covering
the four OSWorld settings evaluators; bad files are typed errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import artifactcheck
from artifactcheck.checks.registry import run_check
from artifactcheck.errors import CorruptArtifact

XCU = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Save/Document"><prop oor:name="AutoSaveTimeIntervall" oor:op="fuse"><value>{autosave}</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Save/Document"><prop oor:name="AutoSave" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/History"><node oor:name="PickList" oor:op="fuse"><node oor:name="ItemList"><node oor:name="file:///home/user/report.docx" oor:op="replace"><prop oor:name="Title" oor:op="fuse"><value>report.docx</value></prop></node></node></node></item>
<item oor:path="/org.openoffice.Office.Impress/Misc/Start"><prop oor:name="EnablePresenterScreen" oor:op="fuse"><value>{presenter}</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/DefaultFont"><prop oor:name="Standard" oor:op="fuse"><value>{font}</value></prop></item>
<item oor:path="/org.openoffice.Setup/L10N"><prop oor:name="ooLocale" oor:op="fuse"><value>{locale}</value></prop></item>
<item oor:path="/org.openoffice.Office.Linguistic/General"><prop oor:name="UILocale" oor:op="fuse"><value xsi:nil="true"/></prop></item>
<item oor:path="/org.openoffice.Office.Common/Font/Substitution"><prop oor:name="FontPairs" oor:op="fuse" oor:type="oor:string-list"><value><it>Arial</it><it>Liberation Sans</it></value></prop></item>
</oor:items>
"""
DEFAULTS = {"autosave": "3", "presenter": "false", "font": "Liberation Serif", "locale": "de-DE"}


def xcu(tmp_path: Path, name: str = "registrymodifications.xcu", **values: str) -> Path:
    path = tmp_path / name
    path.write_text(XCU.format(**{**DEFAULTS, **values}), encoding="utf-8")
    return path


def check(path: Path, params: dict[str, Any]) -> str:
    return run_check("setting_is", artifactcheck.load(path), params).status


def test_the_tree(tmp_path: Path) -> None:
    doc = artifactcheck.load(xcu(tmp_path))
    assert doc.artifact.format == "xcu" and doc.artifact.layout == "none" and doc.pages == []
    node = doc.get("/org.openoffice.Office.Common/Save/Document/AutoSaveTimeIntervall")
    assert node.kind == "setting" and node.text == "3" and node.attrs["op"] == "fuse"
    deep = doc.select_one('setting[path$="/Title"]')
    assert deep.attrs["path"] == "/org.openoffice.Office.Common/History/PickList/ItemList/file:///home/user/report.docx/Title"
    pairs = doc.select_one('setting[path$="FontPairs"]')
    assert pairs.attrs["items"] == ["Arial", "Liberation Sans"] and pairs.attrs["value_type"] == "oor:string-list"
    assert doc.select_one('setting[path$="UILocale"]').attrs["nil"] is True


AUTOSAVE = "/org.openoffice.Office.Common/Save/Document/AutoSaveTimeIntervall"
PRESENTER = "/org.openoffice.Office.Impress/Misc/Start/EnablePresenterScreen"
FONT = "/org.openoffice.Office.Writer/DefaultFont/Standard"
LOCALE = ["/org.openoffice.Setup/L10N/ooSetupSystemLocale", "/org.openoffice.Setup/L10N/ooLocale"]


@pytest.mark.parametrize(
    ("values", "params", "expected"),
    [
        ({}, {"path": AUTOSAVE, "expected": 3, "match": "number"}, "pass"),  # check_auto_saving_time
        ({"autosave": "10"}, {"path": AUTOSAVE, "expected": 3, "match": "number"}, "fail"),
        ({}, {"path": PRESENTER, "expected": False}, "pass"),  # check_presenter_console_disable
        ({"presenter": "true"}, {"path": PRESENTER, "expected": False}, "fail"),
        ({"presenter": "False"}, {"path": PRESENTER, "expected": False}, "pass"),  # OSWorld lower-cases it too
        ({}, {"path": FONT, "expected": "Liberation Serif"}, "pass"),  # find_default_font
        ({"font": "Liberation Sans"}, {"path": FONT, "expected": "Liberation Serif"}, "fail"),
        ({}, {"path": LOCALE, "expected": ["de-*", "fr-*"], "match": "glob"}, "pass"),  # check_libre_locale
        ({"locale": "en-US"}, {"path": LOCALE, "expected": ["de-*", "fr-*"], "match": "glob"}, "fail"),
    ],
)
def test_osworld_settings(tmp_path: Path, values: dict[str, str], params: dict[str, Any], expected: str) -> None:
    assert check(xcu(tmp_path, **values), params) == expected


def test_not_set_fails_and_says_so(tmp_path: Path) -> None:
    doc = artifactcheck.load(xcu(tmp_path))
    result = run_check("setting_is", doc, {"path": "/org.openoffice.Office.Calc/Input/EnterMoves", "expected": True})
    assert result.status == "fail" and "not set" in result.explanation


def test_the_last_entry_decides(tmp_path: Path) -> None:
    path = xcu(tmp_path)
    text = path.read_text(encoding="utf-8").replace(
        "</oor:items>",
        '<item oor:path="/org.openoffice.Office.Common/Save/Document"><prop oor:name="AutoSaveTimeIntervall" '
        'oor:op="fuse"><value>7</value></prop></item>\n</oor:items>',
    )
    path.write_text(text, encoding="utf-8")
    assert check(path, {"path": AUTOSAVE, "expected": 7, "match": "number"}) == "pass"
    assert check(path, {"path": AUTOSAVE, "expected": 3, "match": "number"}) == "fail"


def test_told_by_content(tmp_path: Path) -> None:
    assert artifactcheck.load(xcu(tmp_path, "settings.txt")).artifact.format == "xcu"


def test_not_a_registry_file(tmp_path: Path) -> None:
    broken = tmp_path / "registrymodifications.xcu"
    broken.write_text('<?xml version="1.0"?><oor:items xmlns:oor="http://openoffice.org/2001/registry"><item>', encoding="utf-8")
    with pytest.raises(CorruptArtifact, match="registrymodifications.xcu"):
        artifactcheck.load(broken)
    other = tmp_path / "other.xcu"
    other.write_text("<config><x/></config>", encoding="utf-8")
    with pytest.raises(CorruptArtifact, match="not a LibreOffice registry file"):
        artifactcheck.load(other)


def test_on_another_artifact_it_is_an_error(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_paragraph("hello")
    document.save(str(tmp_path / "a.docx"))
    result = run_check("setting_is", artifactcheck.load(tmp_path / "a.docx", render=False), {"path": FONT, "expected": "x"})
    assert result.status == "error" and "registrymodifications.xcu" in result.explanation


def test_every_emitted_attribute_is_declared(tmp_path: Path) -> None:
    from tests.model.test_attributes import undeclared

    assert undeclared(artifactcheck.load(xcu(tmp_path)), "registrymodifications.xcu") == []
