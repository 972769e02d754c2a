"""Pictures placed *in* cells (Excel 365 "Place in Cell"): rich values.

A cell with ``vm="N"`` points at ``xl/metadata.xml`` valueMetadata block N (1-based) ->
``rc@v`` -> futureMetadata ``XLRICHVALUE`` block -> ``xlrd:rvb@i`` = rich value index ->
``xl/richData/rdrichvalue.xml`` ``rv`` (its structure in ``rdrichvaluestructure.xml``
names the key ``_rvRel:LocalImageIdentifier``) -> index into
``xl/richData/richValueRel.xml`` -> relationship -> the image part. The ``Text`` key,
when present, is the picture's alt text. Anything missing yields no picture (the cell
then keeps its ``#VALUE!`` fallback text).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .parts import Parts

NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
RD = "{http://schemas.microsoft.com/office/spreadsheetml/2017/richdata}"
RVR = "{http://schemas.microsoft.com/office/spreadsheetml/2022/richvaluerel}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"

METADATA = "xl/metadata.xml"
RICH_VALUES = "xl/richData/rdrichvalue.xml"
STRUCTURES = "xl/richData/rdrichvaluestructure.xml"
VALUE_RELS = "xl/richData/richValueRel.xml"


@dataclass(frozen=True)
class CellPicture:
    part: str
    alt_text: str | None


def read_cell_pictures(parts: Parts) -> dict[str, CellPicture]:
    """``vm`` attribute value -> the picture it shows (empty when the workbook has none)."""
    if not all(parts.has(p) for p in (METADATA, RICH_VALUES, STRUCTURES, VALUE_RELS)):
        return {}
    meta = parts.xml(METADATA)
    future = meta.find(f"{NS}futureMetadata[@name='XLRICHVALUE']")
    if future is None:
        return {}
    rvb_by_block: list[int | None] = []
    for bk in future.iterfind(f"{NS}bk"):
        rvb = next(bk.iter(f"{RD}rvb"), None)
        rvb_by_block.append(_int(rvb.get("i")) if rvb is not None else None)
    structures = [
        [k.get("n") for k in s.iterfind(f"{RD}k")] for s in parts.xml(STRUCTURES).iterfind(f"{RD}s")
    ]
    values: list[tuple[int | None, list[str]]] = [
        (_int(rv.get("s")), [v.text or "" for v in rv.iterfind(f"{RD}v")])
        for rv in parts.xml(RICH_VALUES).iterfind(f"{RD}rv")
    ]
    rel_ids = [r.get(f"{R}id") for r in parts.xml(VALUE_RELS).iterfind(f"{RVR}rel")]
    rels = parts.rels(VALUE_RELS)
    out: dict[str, CellPicture] = {}
    for n, bk in enumerate(meta.iterfind(f"{NS}valueMetadata/{NS}bk"), start=1):
        rc = bk.find(f"{NS}rc")
        block = _int(rc.get("v")) if rc is not None else None
        if block is None or not 0 <= block < len(rvb_by_block):
            continue
        rv_index = rvb_by_block[block]
        if rv_index is None or not 0 <= rv_index < len(values):
            continue
        s_index, vals = values[rv_index]
        keys = structures[s_index] if s_index is not None and 0 <= s_index < len(structures) else []
        picture = _picture(keys, vals, rel_ids, rels, parts)
        if picture is not None:
            out[str(n)] = picture
    return out


def _picture(keys: list[str | None], vals: list[str], rel_ids: list[str | None],
             rels: Mapping[str, object], parts: Parts) -> CellPicture | None:
    try:
        rel_index = int(vals[keys.index("_rvRel:LocalImageIdentifier")])
        rel = rels.get(rel_ids[rel_index] or "")
    except (ValueError, IndexError):
        return None
    target = getattr(rel, "target", None)
    if not isinstance(target, str) or getattr(rel, "external", True) or not parts.has(target):
        return None
    alt = None
    if "Text" in keys and keys.index("Text") < len(vals):
        alt = vals[keys.index("Text")] or None
    return CellPicture(part=target, alt_text=alt)


def _int(v: str | None) -> int | None:
    try:
        return int(v) if v is not None else None
    except ValueError:
        return None

