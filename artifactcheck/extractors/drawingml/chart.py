"""One DrawingML chart part (``c:chartSpace``) read into plain data; shared by the .pptx
and .xlsx extractors, which each turn a :class:`Chart` into their own node attrs.

Why not python-pptx's or openpyxl's chart API: python-pptx raises NotImplementedError for
several plot types (``area3DChart``, ``surfaceChart``, ... — see corpus
pptx_cht-chart-type.pptx) and openpyxl's reader keeps neither the cached values nor every
chart type. The XML is regular: every plot element under ``c:plotArea`` holds ``c:ser``
elements with ``c:tx`` (name), ``c:cat``/``c:xVal`` (categories) and ``c:val``/``c:yVal``
(values), each a formula reference plus the cached values the file was saved with.

Cached points are kept as written (index + text, per level): the two formats read them
differently (PowerPoint attrs place points by ``idx`` and keep text in string caches; the
.xlsx attrs list points in document order as numbers), so decoding stays with the callers.
Elements are matched by local name, as Office does not put plot or axis elements in any
other namespace; comments and processing instructions are skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

C_NS = "http://schemas.openxmlformats.org/drawingml/2006/chart"
_C = f"{{{C_NS}}}"
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"

# A data source holds exactly one of these (ECMA-376 §21.2.2: CT_AxDataSource, CT_NumDataSource).
_HOLDERS = ("numRef", "strRef", "multiLvlStrRef", "numLit", "strLit")
_CACHES = ("numCache", "strCache", "multiLvlStrCache")


@dataclass(frozen=True)
class Point:
    """One ``c:pt``: ``idx`` (None when missing or not an integer) and the ``c:v`` text
    ("" when empty, None when the point has no ``c:v``)."""

    idx: int | None
    text: str | None


@dataclass(frozen=True)
class Level:
    """A run of cached points: a whole cache, or one ``c:lvl`` of a multi-level cache.
    ``count`` is its ``c:ptCount`` (0 when absent or not an integer; file-controlled)."""

    count: int
    points: list[Point]


@dataclass(frozen=True)
class Source:
    """A data source (``c:tx`` string reference, ``c:cat``, ``c:val``, ``c:xVal``,
    ``c:yVal``): its formula, whether the cache is numeric, and the cached levels
    (empty when the file saved no cache). Multi-level category caches have one level per
    ``c:lvl``, innermost first as written."""

    ref: str | None = None
    numeric: bool = False
    levels: list[Level] = field(default_factory=list)

    def texts(self) -> list[str | None]:
        """All cached point texts in document order, across levels."""
        return [pt.text for level in self.levels for pt in level.points]


@dataclass(frozen=True)
class Text:
    """What a ``c:tx`` holds: its text (a string reference's cached points joined by
    spaces, rich-text paragraphs joined by newlines, or a literal ``c:v``), the
    reference's formula, and the reference itself."""

    text: str | None = None
    ref: str | None = None
    source: Source = field(default_factory=Source)
    literal: str | None = None  # c:v, the form a series name takes when not a reference


@dataclass(frozen=True)
class Series:
    """One ``c:ser`` with the type of the plot holding it (``bar``, ``column``, ...)."""

    plot_type: str
    name: Text
    categories: Source
    values: Source


_LABEL_PARTS = ("showVal", "showCatName", "showSerName", "showPercent", "showBubbleSize")


def _labels_shown(dlbls: etree._Element | None) -> bool:
    """Whether a plot's or series' ``c:dLbls`` draws labels: not deleted, and one of its
    parts (value, category, series name, percent, bubble size) on. A part the file leaves
    out counts as on, as LibreOffice draws it: openpyxl's ``DataLabelList(showVal=True)``
    writes only ``showVal`` and is drawn "North; Y2024; 10"."""
    if dlbls is None or _flag(dlbls.find(f"{_C}delete")):
        return False
    parts = [dlbls.find(f"{_C}{name}") for name in _LABEL_PARTS]
    return any(el is None or _flag(el) for el in parts)


def axis_titles(axes: list[Axis]) -> dict[str, str]:
    """``value_axis_title`` and ``category_axis_title`` of a chart's shown axes, for
    selectors (``chart[value_axis_title="Revenue ($)"]``: a selector cannot look into the
    ``axes`` list, so "the value axis is titled ..." could not pass). The category axis is
    the first ``catAx``/``dateAx``, or a scatter chart's horizontal ``valAx``; the value
    axis the first other ``valAx``. Untitled or deleted axes give no key."""
    shown = [ax for ax in axes if not ax.deleted]
    category = next((ax for ax in shown if ax.element in ("catAx", "dateAx")), None)
    if category is None:
        category = next((ax for ax in shown if ax.element == "valAx" and ax.position in ("b", "t")), None)
    value = next((ax for ax in shown if ax.element == "valAx" and ax is not category), None)
    out: dict[str, str] = {}
    if value is not None and value.title:
        out["value_axis_title"] = value.title
    if category is not None and category.title:
        out["category_axis_title"] = category.title
    return out


@dataclass(frozen=True)
class Axis:
    """One ``c:*Ax``: ``element`` is the local name (``catAx``, ``valAx``, ``dateAx``,
    ``serAx``); ``position`` the raw ``c:axPos`` value (``b``, ``l``, ...)."""

    element: str
    title: str | None
    position: str | None
    deleted: bool


@dataclass(frozen=True)
class Chart:
    """A ``c:chart``. ``title`` is the stated title text only (no automatic title);
    ``has_title`` says a ``c:title`` element is present; ``grouping`` comes from the first
    plot stating one; ``legend_position`` is the raw ``c:legendPos`` value, ``r`` when a
    legend states none, None without a legend. ``auto_title_kept`` says the file states
    ``<c:autoTitleDeleted val="0"/>`` (python-pptx's default): LibreOffice then draws the
    single series' name as the title even without a ``c:title``, where an absent element
    draws none (design/drawingml-chart.md)."""

    title: str | None
    title_ref: str | None
    has_title: bool
    auto_title_deleted: bool
    auto_title_kept: bool
    plot_types: list[str]
    grouping: str | None
    series: list[Series]
    axes: list[Axis]
    legend_position: str | None
    data_labels: bool = False  # some plot or series draws data labels (``_labels_shown``)


def plot_type(el: etree._Element) -> str:
    """``barChart`` -> ``bar``/``column`` (by ``c:barDir``), ``line3DChart`` -> ``line3D``."""
    name = etree.QName(el).localname.removesuffix("Chart")
    if name in ("bar", "bar3D"):
        bar_dir = el.find(f"{_C}barDir")
        if bar_dir is not None and bar_dir.get("val") == "col":
            return "column" if name == "bar" else "column3D"
    return str(name)


def _flag(el: etree._Element | None) -> bool:
    """A CT_Boolean element: present and true (``val`` defaults to true)."""
    return el is not None and el.get("val", "1") in ("1", "true")


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _level(el: etree._Element) -> Level:
    count_el = el.find(f"{_C}ptCount")
    count = _int(count_el.get("val", "0")) if count_el is not None else 0
    points = [Point(_int(pt.get("idx")), pt.findtext(f"{_C}v")) for pt in el.iter(f"{_C}pt")]
    return Level(count or 0, points)


def read_source(el: etree._Element | None) -> Source:
    """The data source under ``el`` (a ``c:tx``/``c:cat``/``c:val``/... element)."""
    if el is None:
        return Source()
    for kind in _HOLDERS:
        holder = el.find(f"{_C}{kind}")
        if holder is not None:
            break
    else:
        return Source()
    f = holder.find(f"{_C}f")
    ref = f.text if f is not None else None
    if kind.endswith("Lit"):
        cache: etree._Element | None = holder
    else:
        cache = next((c for c in (holder.find(f"{_C}{t}") for t in _CACHES) if c is not None), None)
    if cache is None:
        return Source(ref)
    levels = cache.findall(f"{_C}lvl") or [cache]
    return Source(ref, kind.startswith("num"), [_level(lvl) for lvl in levels])


def read_text(tx: etree._Element | None) -> Text:
    """A ``c:tx`` (chart, axis or series title)."""
    if tx is None:
        return Text()
    literal = tx.findtext(f"{_C}v")
    if tx.find(f"{_C}strRef") is not None:
        source = read_source(tx)
        texts = [t or "" for t in source.texts()]
        return Text(" ".join(texts) if texts else None, source.ref, source, literal)
    rich = tx.find(f"{_C}rich")
    if rich is not None:
        paras = ["".join(t.text or "" for t in p.iter(f"{_A}t")) for p in rich.iter(f"{_A}p")]
        return Text("\n".join(paras) if paras else None, literal=literal)
    return Text(literal, literal=literal)


def _title(el: etree._Element | None) -> Text:
    return read_text(el.find(f"{_C}tx")) if el is not None else Text()


def _first(el: etree._Element, *tags: str) -> etree._Element | None:
    return next((c for c in (el.find(f"{_C}{t}") for t in tags) if c is not None), None)


def read_chart_space(root: etree._Element) -> Chart | None:
    """The chart of a chart part's root (``c:chartSpace``); None without ``c:chart``."""
    chart = root.find(f"{_C}chart")
    if chart is None:
        return None
    title_el = chart.find(f"{_C}title")
    title = _title(title_el)
    types: list[str] = []
    grouping: str | None = None
    series: list[Series] = []
    axes: list[Axis] = []
    labelled = False
    plot = chart.find(f"{_C}plotArea")
    for el in plot if plot is not None else ():
        if not isinstance(el.tag, str):
            continue
        local = etree.QName(el).localname
        if local.endswith("Chart"):
            kind = plot_type(el)
            types.append(kind)
            grouping_el = el.find(f"{_C}grouping")
            if grouping_el is not None and grouping is None:
                grouping = grouping_el.get("val", "standard")
            labelled = labelled or _labels_shown(el.find(f"{_C}dLbls"))
            for ser in el.iterfind(f"{_C}ser"):
                labelled = labelled or _labels_shown(ser.find(f"{_C}dLbls"))
                series.append(
                    Series(
                        kind,
                        read_text(ser.find(f"{_C}tx")),
                        read_source(_first(ser, "cat", "xVal")),
                        read_source(_first(ser, "val", "yVal")),
                    )
                )
        elif local.endswith("Ax"):
            pos = el.find(f"{_C}axPos")
            axes.append(
                Axis(
                    local,
                    _title(el.find(f"{_C}title")).text,
                    pos.get("val") if pos is not None else None,
                    _flag(el.find(f"{_C}delete")),
                )
            )
    auto_title = chart.find(f"{_C}autoTitleDeleted")
    legend = chart.find(f"{_C}legend")
    legend_pos = legend.find(f"{_C}legendPos") if legend is not None else None
    return Chart(
        title=title.text,
        title_ref=title.ref,
        has_title=title_el is not None,
        auto_title_deleted=_flag(auto_title),
        auto_title_kept=auto_title is not None and not _flag(auto_title),
        plot_types=types,
        grouping=grouping,
        series=series,
        axes=axes,
        legend_position=(legend_pos.get("val", "r") if legend_pos is not None else "r") if legend is not None else None,
        data_labels=labelled,
    )
