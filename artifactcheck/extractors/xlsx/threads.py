"""Threaded comments (Excel 365 "Comments", as opposed to notes): a thread per cell, its
replies, who wrote each (``xl/persons/person.xml``), when, and whether it is resolved.

Files keep a legacy note beside each thread ("[Threaded comment] Your version of Excel
allows you to read this threaded comment ..." by ``tc={id}``) for old readers; the tree
shows the thread instead: the cell's ``comment`` node is the thread's first comment
(``threaded: true``, ``author``, ``created``, ``resolved``), its replies are ``comment``
children (``Sheet!F7/comment/reply1``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

TC = "{http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments}"


@dataclass
class ThreadComment:
    text: str
    author: str | None
    created: str | None
    id: str | None


@dataclass
class Thread:
    ref: str
    first: ThreadComment
    resolved: bool = False
    replies: list[ThreadComment] = field(default_factory=list)


def read_persons(root: etree._Element | None) -> dict[str, str]:
    """Person id -> display name."""
    if root is None:
        return {}
    return {p.get("id", ""): p.get("displayName") or p.get("userId") or "" for p in root.iterfind(f"{TC}person")}


def read_threads(root: etree._Element, persons: dict[str, str]) -> list[Thread]:
    """The threads of one threadedComments part, in file order; a reply whose parent is
    missing starts its own thread."""
    threads: dict[str, Thread] = {}
    out: list[Thread] = []
    for c in root.iterfind(f"{TC}threadedComment"):
        text = "".join(c.findtext(f"{TC}text") or "")
        person = c.get("personId")
        item = ThreadComment(text=text, author=persons.get(person or "", None) if person else None,
                             created=c.get("dT"), id=c.get("id"))
        parent = c.get("parentId")
        if parent and parent in threads:
            threads[parent].replies.append(item)
            continue
        thread = Thread(ref=c.get("ref", ""), first=item, resolved=c.get("done") in ("1", "true"))
        if item.id:
            threads[item.id] = thread
        out.append(thread)
    return out
