"""Bytes of a delimited text file -> rows of fields: the encoding detected, the dialect
sniffed, binary data refused.

- **Encoding**: a byte-order mark decides (UTF-8, UTF-16 LE/BE); else strict UTF-8 (what
  almost every tool writes today, and ASCII is UTF-8); else charset-normalizer's best
  guess (Windows-1252 from Excel "CSV" on Windows, Latin-1, Shift-JIS...). The choice is
  reported, so a wrong guess is visible in the evidence.
- **Binary junk**: NUL bytes outside a UTF-16 file, or text whose decoding is mostly
  control characters, is not a CSV: ``UnsupportedFormat``.
- **Dialect**: clevercsv's detector (pattern x type consistency; it beats
  ``csv.Sniffer`` on tab files with commas inside fields and on semicolon files with
  decimal commas) over the first 64 KiB, among ``,`` ``;`` tab ``|``. When it declines to
  choose (ties), the delimiter that occurs equally often on every line wins, tab first;
  a file with none is one column. Then the stdlib ``csv`` reader parses it with that dialect.
"""

from __future__ import annotations

import codecs
import csv
import io
from dataclasses import dataclass
from pathlib import Path

from ...errors import UnsupportedFormat

__all__ = ["CsvText", "decode_text", "parse_rows", "sniff_dialect"]

_SAMPLE_CHARS = 64 * 1024
_DELIMITERS = [",", ";", "\t", "|"]
_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_MAX_CONTROL_SHARE = 0.05  # more control characters than this in the sample: not text


@dataclass(frozen=True)
class CsvText:
    """Decoded text and how it was read."""

    text: str
    encoding: str
    encoding_source: str  # "bom", "utf-8", "detected"


def decode_text(data: bytes, *, path: Path) -> CsvText:
    """The text of ``data`` (see the module docstring); UnsupportedFormat for binary."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return CsvText(_decode(data, name, path), name.removesuffix("-sig"), "bom")
    if b"\x00" in data[: 1 << 16]:
        raise UnsupportedFormat("binary data, not text (NUL bytes): not a CSV/TSV file", path=path)
    try:
        text, encoding, source = data.decode("utf-8"), "utf-8", "utf-8"
    except UnicodeDecodeError:
        from charset_normalizer import from_bytes

        best = from_bytes(data[: 1 << 20]).best()
        if best is None or best.encoding is None:
            raise UnsupportedFormat("not text in any encoding we can detect: not a CSV/TSV file", path=path) from None
        encoding, source = best.encoding, "detected"
        text = _decode(data, encoding, path)
    sample = text[:_SAMPLE_CHARS]
    controls = sum(1 for ch in sample if ord(ch) < 32 and ch not in "\t\r\n\f")
    if sample and controls / len(sample) > _MAX_CONTROL_SHARE:
        raise UnsupportedFormat(
            f"binary data, not text ({controls} control characters in the first {len(sample)}): not a CSV/TSV file",
            path=path,
        )
    return CsvText(text, encoding, source)


def _decode(data: bytes, encoding: str, path: Path) -> str:
    try:
        return data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        raise UnsupportedFormat(f"cannot decode the text as {encoding}: {exc}", path=path) from None


def sniff_dialect(text: str) -> tuple[str, str]:
    """``(delimiter, quotechar)`` of the text; ``("", '"')`` for one column."""
    import clevercsv

    sample = text[:_SAMPLE_CHARS]
    if len(text) > _SAMPLE_CHARS and "\n" in sample:
        sample = sample[: sample.rindex("\n")]  # whole lines only
    try:
        found = clevercsv.Detector().detect(sample, delimiters=_DELIMITERS)
    except Exception:  # noqa: BLE001 - the detector failing is "no delimiter found"
        found = None
    delimiter = found.delimiter if found is not None and found.delimiter in _DELIMITERS else ""
    quotechar = found.quotechar if found is not None and found.quotechar in ('"', "'") else '"'
    if not delimiter:
        delimiter = _consistent_delimiter(sample)
    return delimiter, quotechar


def _consistent_delimiter(sample: str) -> str:
    """When the detector finds no single best dialect (it declines ties, e.g. a two-column
    tab file whose fields hold commas): the candidate that appears the same number of
    times (at least once) on every line, tab first — tabs are rarely inside text, commas
    often are. "" when none does."""
    lines = [line for line in sample.splitlines() if line.strip()][:50]
    if len(lines) < 2:
        return ""
    for delimiter in ("\t", ";", "|", ","):
        counts = {line.count(delimiter) for line in lines}
        if len(counts) == 1 and counts != {0}:
            return delimiter
    return ""


def parse_rows(text: str, delimiter: str, quotechar: str, *, path: Path) -> list[list[str]]:
    """Rows of fields. One column when there is no delimiter (each line one field)."""
    csv.field_size_limit(32_767 * 4)  # Excel's cell limit, with room for quotes
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter or "\x1f", quotechar=quotechar, doublequote=True, strict=False)
    try:
        return [row for row in reader]
    except csv.Error as exc:
        raise UnsupportedFormat(f"not a readable CSV: {exc}", path=path) from None
