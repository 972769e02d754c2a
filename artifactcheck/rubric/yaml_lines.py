"""A YAML reader that remembers where every key and item came from (file and 1-based
line), so a rubric error can say "rubric.yaml: line 12: unknown key 'wieght'".

Why PyYAML's SafeLoader subclass: it already gives every parsed node a start mark, and the
safe constructors never build arbitrary Python objects. JSON rubrics go through the same
reader (JSON is YAML's flow syntax), so they get line numbers too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..errors import RubricError


class LocatedDict(dict[str, Any]):
    """A mapping that knows its file, its own line and the line of each key."""

    file: str
    line: int
    key_lines: dict[str, int]


class LocatedList(list[Any]):
    """A sequence that knows its file, its own line and the line of each item."""

    file: str
    line: int
    item_lines: list[int]


class _LineLoader(yaml.SafeLoader):
    file_name: str = "<string>"


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> LocatedDict:
    loader.flatten_mapping(node)
    out = LocatedDict()
    out.file = loader.file_name
    out.line = node.start_mark.line + 1
    out.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        if not isinstance(key, str):
            raise RubricError(f"keys must be strings, got {key!r}", path=loader.file_name, line=line)
        if key in out:
            raise RubricError(f"duplicate key {key!r}", path=loader.file_name, line=line)
        out[key] = loader.construct_object(value_node, deep=True)
        out.key_lines[key] = line
    return out


def _construct_sequence(loader: _LineLoader, node: yaml.SequenceNode) -> LocatedList:
    out = LocatedList(loader.construct_object(child, deep=True) for child in node.value)
    out.file = loader.file_name
    out.line = node.start_mark.line + 1
    out.item_lines = [child.start_mark.line + 1 for child in node.value]
    return out


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)
# Dates and times are not JSON values; keep them as the strings the author wrote.
_LineLoader.add_constructor(
    "tag:yaml.org,2002:timestamp",
    yaml.SafeLoader.construct_yaml_str,  # type: ignore[type-var]  # stubs: SafeConstructor method on a SafeLoader subclass
)


def load_located(path: str | Path) -> Any:
    """Parse a YAML or JSON file into LocatedDict/LocatedList/scalars. Raises RubricError
    naming the file and line for unreadable or malformed input."""
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RubricError(f"cannot read rubric file: {exc}", path=file) from None
    loader = _LineLoader(text)
    loader.file_name = file
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        raise RubricError(f"not valid YAML/JSON: {exc.problem or exc}", path=file, line=line) from None
    except yaml.YAMLError as exc:
        raise RubricError(f"not valid YAML/JSON: {exc}", path=file) from None
    finally:
        loader.dispose()


def locate(data: Any, path: tuple[str | int, ...]) -> tuple[str | None, int | None]:
    """The file and line of the deepest located element on ``path`` inside ``data``."""
    file: str | None = getattr(data, "file", None)
    line: int | None = getattr(data, "line", None)
    current = data
    for part in path:
        if isinstance(current, LocatedDict) and isinstance(part, str) and part in current:
            file, line = current.file, current.key_lines.get(part, current.line)
            current = current[part]
        elif isinstance(current, LocatedList) and isinstance(part, int) and 0 <= part < len(current):
            file, line = current.file, current.item_lines[part]
            current = current[part]
        elif isinstance(current, (dict, list)):
            try:
                current = current[part]  # type: ignore[index]
            except (KeyError, IndexError, TypeError):
                break
        else:
            break
        if isinstance(current, (LocatedDict, LocatedList)):
            file, line = current.file, line if line is not None else current.line
    return file, line
