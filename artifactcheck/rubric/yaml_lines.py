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
from ..input_files import read_input_bytes
from ..limits import current_limits


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
    _depth: int = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        # PyYAML composes recursively: a 5000-deep flow list would end in RecursionError.
        # Refuse at the nesting budget instead (rubrics nest a few levels; 200 is ample).
        self._depth += 1
        try:
            limit = current_limits().nesting_depth
            if self._depth > limit:
                mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
                raise RubricError(f"values nest deeper than {limit} levels", path=self.file_name, line=mark.line + 1)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


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
    naming the file and line for unreadable or malformed input: not a regular file, too
    big, control characters, nesting past the budget, aliases that expand past the
    ``yaml_nodes`` budget (a 559-byte alias bomb is 387 million values)."""
    file = str(path)
    data = read_input_bytes(path, what="rubric file", error=RubricError, too_large=RubricError)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RubricError(f"the rubric file is not UTF-8 text ({exc.reason} at byte {exc.start})", path=file) from None
    try:
        loader = _LineLoader(text)
    except yaml.YAMLError as exc:  # the reader checks characters as it is built
        raise RubricError(f"not valid YAML/JSON: {_problem(exc)}", path=file) from None
    try:
        return _bounded_document(loader, file)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        raise RubricError(f"not valid YAML/JSON: {exc.problem or exc}", path=file, line=line) from None
    except yaml.YAMLError as exc:
        raise RubricError(f"not valid YAML/JSON: {_problem(exc)}", path=file) from None
    except RecursionError:
        raise RubricError("values nest too deeply", path=file) from None


def load_value(text: str, *, what: str) -> Any:
    """One YAML value given outside a file (``--param name=VALUE``), with the same
    bounds as a rubric file: nesting, alias expansion, no self-reference, safe tags only.
    Raises RubricError naming ``what``."""
    if not (text.isprintable() or "\n" in text):
        raise RubricError(f"{what}: the value holds control characters")
    try:
        return _bounded_document(_LineLoader(text), what)
    except yaml.YAMLError as exc:
        raise RubricError(f"{what}: the value is not a YAML scalar, list or mapping ({_problem(exc)}); "
                          "quote it to pass a string") from None


def _bounded_document(loader: _LineLoader, name: str) -> Any:
    """Compose the one document of ``loader`` (nesting bounded in compose_node), check its
    alias expansion, then construct it; the loader is disposed of in every case."""
    loader.file_name = name
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_expansion(node, name)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _problem(exc: yaml.YAMLError) -> str:
    """A YAML error's reason on one line, without the snippet of input PyYAML quotes."""
    if isinstance(exc, yaml.reader.ReaderError):
        return f"unacceptable character #x{exc.character:04x} at position {exc.position}" if isinstance(exc.character, int) else "unreadable characters"
    return " ".join(str(getattr(exc, "problem", None) or type(exc).__name__).split())


def _check_expansion(root: yaml.Node, file: str) -> None:
    """Refuse a document whose aliases expand past the ``yaml_nodes`` budget, or refer
    to themselves, before anything is constructed: the composed graph shares aliased
    nodes, but everything after (substitution, validation, JSON) walks the expansion.
    Counted per distinct node, bottom-up, so a bomb is measured without expanding it."""
    limit = current_limits().yaml_nodes
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        kids = _children(node)
        if finished:
            open_nodes.discard(key)
            sizes[key] = total = 1 + sum(sizes[id(k)] for k in kids)
            if total > limit:
                raise RubricError(f"the document expands (through YAML aliases) to more than {limit} values "
                                  f"({current_limits().describe('yaml_nodes')})", path=file, line=node.start_mark.line + 1)
            continue
        if key in sizes:
            continue
        if key in open_nodes:
            raise RubricError("a YAML alias refers to a value that contains it", path=file, line=node.start_mark.line + 1)
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((k, False) for k in kids)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


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
