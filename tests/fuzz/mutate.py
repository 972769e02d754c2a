"""Mutations of real inputs (Office packages, Google responses, snapshot bundles,
rubrics, traces) the way the bad-input campaign made them: each mutation takes a seed's
bytes and a ``random.Random`` (hypothesis's ``st.randoms()`` in the suite, a seeded one
in the long campaign) and returns the bytes of a new input.

The mutations aim at the classes that broke before (corpus bad/fuzz/README.md): damaged
zip members (bytes, compression method, encryption flag, sizes), XML that is deep, huge
in element count, holds control characters or entity declarations, or numbers out of
range; JSON numbers out of range, wrong types, deep nesting, NaN; YAML with control
characters, aliases, deep nesting, odd weights, includes that climb out.
"""

from __future__ import annotations

import io
import json
import random
import re
import struct
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ODD_NUMBERS = ["-1", "-2", "0", "1e308", "-1e308", "1e20", "99999999999999999999", "2147483648", "-2147483649",
               "9223372036854775808", "0.5", "NaN", "inf", "-0", "1e-320", "abc", ""]
ODD_JSON = [-1, -2, 0, 10**20, 2**63, -(2**63), 1e308, -1e308, 0.5, 1e-320, "abc", "", None, True, [], {}, [1, 2], {"a": 1},
            "../../../etc/passwd", "x" * 10_000]
FLOOD_TAGS = [b"<p:sp/>", b"<w:p/>", b"<c/>", b"<row/>", b"<a:p/>", b"<x/>"]


@dataclass(frozen=True)
class Seed:
    """A seed input: its bytes, the file suffix, and the operation that reads it."""

    name: str
    data: bytes
    suffix: str
    op: str  # load | rubric | trace


@dataclass(frozen=True)
class Mutant:
    seed: str
    mutation: str
    data: bytes
    suffix: str
    op: str

    def write(self, folder: Path, index: int) -> Path:
        path = folder / f"mutant-{index:05d}{self.suffix}"
        path.write_bytes(self.data)
        return path


# -- zip containers --------------------------------------------------------------------------


def _members(data: bytes) -> list[zipfile.ZipInfo]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return zf.infolist()


def _rezip(data: bytes, edit: Callable[[str, bytes], bytes | None], *, extra: dict[str, bytes] | None = None) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            new = edit(info.filename, zin.read(info))
            if new is not None:
                zout.writestr(info.filename, new)
        for name, value in (extra or {}).items():
            zout.writestr(name, value)
    return out.getvalue()


def _header_field(data: bytes, rng: random.Random, *, local_at: int, central_at: int, value: int) -> bytes:
    """Set a 2-byte field of one member in its local header and central directory."""
    out = bytearray(data)
    info = rng.choice(_members(data))
    name = info.filename.encode()
    for sig, at, name_len_at, name_at in ((b"PK\x03\x04", local_at, 26, 30), (b"PK\x01\x02", central_at, 28, 46)):
        start = 0
        while (pos := out.find(sig, start)) >= 0:
            start = pos + 4
            if pos + name_at > len(out):
                break
            (length,) = struct.unpack_from("<H", out, pos + name_len_at)
            if bytes(out[pos + name_at: pos + name_at + length]) == name:
                struct.pack_into("<H", out, pos + at, value)
    return bytes(out)


def zip_method(data: bytes, rng: random.Random) -> bytes:
    return _header_field(data, rng, local_at=8, central_at=10, value=rng.choice([1, 6, 9, 12, 14, 93, 95, 98, 99, 0xFFFF]))


def zip_encrypted(data: bytes, rng: random.Random) -> bytes:
    return _header_field(data, rng, local_at=6, central_at=8, value=rng.choice([1, 0x41, 0xFFFF]))


def zip_flip(data: bytes, rng: random.Random) -> bytes:
    """Flip bytes inside one member's compressed stream."""
    info = rng.choice([i for i in _members(data) if i.compress_size > 8] or _members(data))
    body = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if info.compress_size:
            at = body + rng.randrange(info.compress_size)
            if at < len(out):
                out[at] ^= rng.randrange(1, 256)
    return bytes(out)


def zip_truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(1, max(2, len(data)))]


def zip_sizes(data: bytes, rng: random.Random) -> bytes:
    """Declare an absurd uncompressed size in the central directory."""
    out = bytearray(data)
    pos = out.find(b"PK\x01\x02", rng.randrange(max(1, len(out) // 2)))
    if pos < 0:
        pos = out.find(b"PK\x01\x02")
    if pos >= 0:
        struct.pack_into("<I", out, pos + 24, rng.choice([0, 1, 0x7FFFFFFF, 0xFFFFFFFF]))
    return bytes(out)


def zip_drop_or_rename(data: bytes, rng: random.Random) -> bytes:
    victim = rng.choice(_members(data)).filename
    action = rng.choice(["drop", "rename", "duplicate", "traversal"])

    def edit(name: str, body: bytes) -> bytes | None:
        return None if name == victim and action in ("drop", "rename") else body

    extra: dict[str, bytes] = {}
    if action == "rename":
        extra[victim + ".bak"] = b"<x/>"
    elif action == "traversal":
        extra["../../escaped.xml"] = b"<x/>"
        extra["/abs/escaped.xml"] = b"<x/>"
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        if action == "duplicate":
            extra[victim] = zf.read(victim)[: rng.randrange(1, 50)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Duplicate name": that is the point
        return _rezip(data, edit, extra=extra)


def zip_xml(data: bytes, rng: random.Random) -> bytes:
    """Rewrite one XML member with an XML mutation."""
    xml_members = [i.filename for i in _members(data) if i.filename.endswith((".xml", ".rels"))]
    if not xml_members:
        return zip_flip(data, rng)
    victim = rng.choice(xml_members)
    mutation = rng.choice(XML_MUTATIONS)
    return _rezip(data, lambda name, body: mutation(body, rng) if name == victim else body)


# -- XML ---------------------------------------------------------------------------------------

_ATTR_NUMBER = re.compile(rb'(\s[\w:]+=")(-?\d+(?:\.\d+)?)(")')
_TAG = re.compile(rb"<([\w:]+)[\s/>]")


def xml_numbers(xml: bytes, rng: random.Random) -> bytes:
    matches = list(_ATTR_NUMBER.finditer(xml))
    if not matches:
        return xml_control(xml, rng)
    out = xml
    for m in sorted(rng.sample(matches, min(len(matches), rng.randint(1, 6))), key=lambda m: -m.start()):
        out = out[: m.start(2)] + rng.choice(ODD_NUMBERS).encode() + out[m.end(2):]
    return out


def xml_flood(xml: bytes, rng: random.Random) -> bytes:
    """Many empty elements before the root's closing tag (tiny once compressed)."""
    end = xml.rfind(b"</")
    if end < 0:
        return xml
    tag = rng.choice(FLOOD_TAGS + [b"<%s/>" % m.group(1) for m in list(_TAG.finditer(xml))[:20]])
    return xml[:end] + tag * rng.choice([1000, 50_000, 300_000]) + xml[end:]


def xml_deep(xml: bytes, rng: random.Random) -> bytes:
    end = xml.rfind(b"</")
    if end < 0:
        return xml
    depth = rng.choice([300, 3000, 50_000])
    return xml[:end] + b"<d>" * depth + b"</d>" * depth + xml[end:]


def xml_control(xml: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(xml) + 1)
    return xml[:at] + rng.choice([b"\x00", b"\x01", b"\x1f", b"\xff\xfe", b"\xed\xa0\x80", b"&#0;", b"&#x1;"]) + xml[at:]


def xml_entities(xml: bytes, rng: random.Random) -> bytes:
    doctype = rng.choice([
        b'<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
        b'<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>',
        b'<!DOCTYPE r SYSTEM "http://127.0.0.1:9/x.dtd">',
    ])
    decl_end = xml.find(b"?>") + 2 if xml.startswith(b"<?xml") else 0
    body = xml[decl_end:]
    gt = body.find(b">")
    if gt > 0:
        body = body[: gt + 1] + rng.choice([b"&x;", b"&c;", b""]) + body[gt + 1:]
    return xml[:decl_end] + doctype + body


def xml_truncate(xml: bytes, rng: random.Random) -> bytes:
    return xml[: rng.randrange(len(xml) + 1)]


def xml_cell_refs(xml: bytes, rng: random.Random) -> bytes:
    """Sheet cell and row references out of Excel's range."""
    odd = rng.choice([b"XFE1", b"A0", b"A-1", b"AAAAAAAA1", b"A1048577", b"A99999999999999999999", b"", b"1A"])
    return re.sub(rb'(<c [^>]*r=")[A-Z]+\d+(")', lambda m: m.group(1) + odd + m.group(2), xml, count=rng.randint(1, 5))


XML_MUTATIONS: list[Callable[[bytes, random.Random], bytes]] = [
    xml_numbers, xml_flood, xml_deep, xml_control, xml_entities, xml_truncate, xml_cell_refs,
]
ZIP_MUTATIONS: list[Callable[[bytes, random.Random], bytes]] = [
    zip_method, zip_encrypted, zip_flip, zip_truncate, zip_sizes, zip_drop_or_rename, zip_xml, zip_xml, zip_xml,
]


# -- JSON (Google responses, traces, bundle manifests) ----------------------------------------------


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, prefix)]
    while stack and len(out) < 20_000:
        item, path = stack.pop()
        children = item.items() if isinstance(item, dict) else enumerate(item) if isinstance(item, list) else []
        for key, child in children:
            out.append((*path, key))
            stack.append((child, (*path, key)))
    return out


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = new
    return value


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


def json_mutate(data: bytes, rng: random.Random) -> bytes:
    try:
        value = json.loads(data)
    except ValueError:
        return data[: rng.randrange(len(data) + 1)]
    paths = _paths(value)
    kind = rng.choice(["number", "number", "type", "deep", "nan", "drop", "list_bomb", "number"])
    numbers = [p for p in paths if p and isinstance(_get(value, p), (int, float)) and not isinstance(_get(value, p), bool)]
    if kind == "number" and numbers:
        for path in rng.sample(numbers, min(len(numbers), rng.randint(1, 4))):
            value = _set(value, path, rng.choice(ODD_JSON))
    elif kind == "type" and len(paths) > 1:
        for path in rng.sample(paths[1:], min(len(paths) - 1, rng.randint(1, 3))):
            try:
                value = _set(value, path, rng.choice(ODD_JSON))
            except (KeyError, IndexError, TypeError):
                pass
    elif kind == "deep" and len(paths) > 1:
        depth = rng.choice([150, 250, 5000])
        nested: Any = 1
        for _ in range(min(depth, 900)):
            nested = [nested]
        try:
            value = _set(value, rng.choice(paths[1:]), nested)
        except (KeyError, IndexError, TypeError):
            pass
        if depth > 900:  # deeper than json.dumps can write: splice text
            text = json.dumps(value)
            return (text[:-1] + ', "deep": ' + "[" * depth + "]" * depth + text[-1:]).encode() if text.endswith("}") else text.encode()
    elif kind == "nan" and numbers:
        text = json.dumps(_set(value, rng.choice(numbers), float(rng.choice(["nan", "inf", "-inf"]))))
        return text.encode()
    elif kind == "drop" and len(paths) > 1:
        path = rng.choice(paths[1:])
        parent = _get(value, path[:-1])
        if isinstance(parent, dict):
            parent.pop(path[-1], None)
    elif kind == "list_bomb":
        lists = [p for p in paths if isinstance(_get(value, p), list) and _get(value, p)]
        if lists:
            target = _get(value, rng.choice(lists))
            target.extend([target[0]] * rng.choice([100, 20_000]))
    return json.dumps(value, allow_nan=True).encode()


# -- YAML rubrics ------------------------------------------------------------------------------


def yaml_mutate(data: bytes, rng: random.Random) -> bytes:
    text = data.decode("utf-8", "replace")
    kind = rng.choice(["control", "alias_bomb", "deep", "weight", "include", "number", "truncate", "tabs"])
    if kind == "control":
        at = rng.randrange(len(text) + 1)
        return (text[:at] + rng.choice(["\x00", "\x01", "\x7f", "\ufeff", "\udcff"]) + text[at:]).encode("utf-8", "surrogateescape")
    if kind == "alias_bomb":
        levels = rng.choice([4, 9])
        lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
        lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
        return (text.rstrip() + "\n" + "\n".join(lines).replace("a0:", "x_a0:") + "\n").encode()
    if kind == "deep":
        depth = rng.choice([150, 5000])
        return (text.rstrip() + "\nextra: " + "[" * depth + "]" * depth + "\n").encode()
    if kind == "weight":
        return re.sub(r"(\n\s+- id: [^\n]+)", lambda m: m.group(1) + "\n    weight: " + rng.choice([".inf", "-1", ".nan", "1e400", "x", "[]"]), text, count=1).encode()
    if kind == "include":
        target = rng.choice(["../../../../etc/passwd", "/etc/hostname", "/dev/zero", "/proc/self/environ", "../" * 12 + "x.yaml", "${missing}"])
        return re.sub(r"\nsteps:\n", f"\nsteps:\n  - include: {target}\n", text, count=1).encode()
    if kind == "number":
        return re.sub(r"(: )(\d+(?:\.\d+)?)\b", lambda m: m.group(1) + rng.choice(ODD_NUMBERS[:12]), text, count=rng.randint(1, 4)).encode()
    if kind == "tabs":
        return text.replace("  ", "\t", rng.randint(1, 5)).encode()
    return data[: rng.randrange(len(data) + 1)]


# -- dispatch -----------------------------------------------------------------------------------


def mutate(seed: Seed, rng: random.Random) -> Mutant:
    """One mutant of ``seed`` (sometimes two mutations stacked)."""
    data = seed.data
    names = []
    for _ in range(1 if rng.random() < 0.8 else 2):
        if seed.suffix in (".docx", ".xlsx", ".pptx") or (seed.suffix == ".zip"):
            if seed.suffix == ".zip" and rng.random() < 0.5:
                mutation: Callable[[bytes, random.Random], bytes] = _bundle_json
            else:
                mutation = rng.choice(ZIP_MUTATIONS)
        elif seed.suffix in (".json", ".jsonl"):
            mutation = json_mutate
        elif seed.suffix == ".yaml":
            mutation = yaml_mutate
        else:
            mutation = xml_control
        try:
            data = mutation(data, rng)
        except Exception:  # noqa: BLE001 - an earlier mutation broke the container: keep what we have
            break
        names.append(mutation.__name__)
    return Mutant(seed.name, "+".join(names) or "none", data, seed.suffix, seed.op)


def _bundle_json(data: bytes, rng: random.Random) -> bytes:
    """A snapshot bundle whose manifest or response is mutated as JSON."""
    victim = rng.choice(["manifest.json", "response.json"])
    return _rezip(data, lambda name, body: json_mutate(body, rng) if name == victim else body)


def load_seeds(*folders: Path, max_bytes: int = 400_000) -> list[Seed]:
    """Seed inputs from folders (recursively): Office files, Google JSON, rubrics, traces."""
    ops = {".docx": "load", ".xlsx": "load", ".pptx": "load", ".json": "load", ".zip": "load", ".yaml": "rubric", ".jsonl": "trace"}
    seeds = []
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if path.suffix in ops and path.is_file() and 0 < path.stat().st_size <= max_bytes and "bad" not in path.parts:
                seeds.append(Seed(str(path), path.read_bytes(), path.suffix, ops[path.suffix]))
    return seeds


def bundle_seed(google_json: Path) -> Seed:
    """A snapshot bundle built from a saved Google response (bundles are a format of ours:
    the corpus has none)."""
    import tempfile

    from artifactcheck.snapshot import Capture, write_bundle

    response = json.loads(google_json.read_text())
    kind = "spreadsheet" if "sheets" in response else "presentation" if "slides" in response else "document"
    cap = Capture(file_id="1FuzzSeedFileId_abcdefghijklmnop", kind=kind, metadata={"mimeType": "x"}, response=response,
                  captured_at="2024-01-01T00:00:00Z")
    with tempfile.TemporaryDirectory() as tmp:
        path = write_bundle(cap, Path(tmp) / "bundle.zip")
        return Seed(f"bundle:{google_json.name}", path.read_bytes(), ".zip", "load")
