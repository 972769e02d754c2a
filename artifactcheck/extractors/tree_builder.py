"""Helpers every extractor uses to assemble a tree: id allocation and subtree text.

Ids are paths (``s2/sp5/p0/r1``, ``Sheet1!B3``): stable across runs of the same file, and
readable in evidence. ``fill_container_text`` gives every container the plain text of its
subtree so extractors only set text on leaves.
"""

from __future__ import annotations

from ..model import Node

# How a container's children are joined into its text.
_JOINERS: dict[str, str] = {"paragraph": "", "row": "\t"}
_DEFAULT_JOINER = "\n"


def fill_container_text(root: Node) -> None:
    """Set ``text`` of every node that has children and no text of its own, bottom-up."""
    post_order: list[Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        post_order.append(node)
        stack.extend(node.children)
    for node in reversed(post_order):
        if node.children and not node.text:
            joiner = _JOINERS.get(node.kind, _DEFAULT_JOINER)
            parts = [c.text for c in node.children]
            if joiner == _DEFAULT_JOINER:
                parts = [p for p in parts if p]
            node.text = joiner.join(parts)
