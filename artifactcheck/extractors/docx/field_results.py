"""The result runs of fields whose printed text the extractor computes after the walk
(DATE/TIME in ``clock_fields.py``, SEQ in ``seq_fields.py``): the walker marks each result
run with a private ``(serial, instruction)`` attribute, and the field's text is written
into its first run once every field is known."""

from __future__ import annotations

from ...model import Node


def marked_fields(root: Node, mark: str) -> list[tuple[str, list[Node]]]:
    """Each field the walker marked with ``mark`` (``_clock``, ``_seq``), in document
    order: its instruction and its result runs. The marks are dropped."""
    fields: dict[int, tuple[str, list[Node]]] = {}
    for node in root.iter():
        found = node.attrs.pop(mark, None)
        if node.kind == "run" and isinstance(found, tuple):
            serial, instr = found
            fields.setdefault(serial, (instr, []))[1].append(node)
    return list(fields.values())  # dicts keep the order fields were met in


def show_result(runs: list[Node], shown: str) -> None:
    """Make a field's result runs print ``shown``: the first holds it, the others are
    emptied; the stored result is kept in ``field_result_stored``."""
    stored = "".join(r.text for r in runs)
    if shown == stored:
        return
    runs[0].attrs["field_result_stored"] = stored
    runs[0].text = shown
    for extra in runs[1:]:
        extra.text = ""
