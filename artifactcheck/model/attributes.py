"""The attribute reference: every key an extractor puts in ``Node.attrs`` (and in
``Page.attrs``), per node kind, with its JSON type, unit, one-line meaning, the sources
that emit it and an example.

Authors read it as ``artifactcheck attrs [KIND]`` or ``design/attributes.md`` (both
rendered from this module by ``model/attribute_reference.py``); ``tests/model/
test_attributes.py`` fails when an extractor emits a name, type or source not declared
here, and when design/attributes.md is stale.

To declare a new attribute, add one ``_a(...)`` line to its kind's block in
``ATTRIBUTES`` below (or to ``_SHARED`` when several kinds carry it with one meaning and
pass it as ``_shared("name", SOURCES)``), then run
``python -m artifactcheck.model.attribute_reference`` to rewrite design/attributes.md.

Conventions every meaning assumes: lengths are points (1/72 in) in page space, origin
top-left, y down; angles are degrees clockwise; colours ``#rrggbb`` lower-case; sheet rows
and columns are 1-based (A1 is row 1, column 1), table rows and columns in documents and
slides are 0-based; an attribute absent from a node means "not stated / not applicable".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from pydantic import JsonValue

Source = Literal["docx", "xlsx", "pptx", "gdoc", "gsheet", "gslides", "pdf", "csv", "image", "epub", "xcu"]
JsonType = Literal["string", "integer", "number", "boolean", "array", "object", "null"]
JSON_TYPES: tuple[str, ...] = JsonType.__args__  # type: ignore[attr-defined]

DOCX: Source = "docx"
XLSX: Source = "xlsx"
PPTX: Source = "pptx"
GDOC: Source = "gdoc"
GSHEET: Source = "gsheet"
GSLIDES: Source = "gslides"
PDF: Source = "pdf"
CSV: Source = "csv"
IMAGE: Source = "image"
EPUB: Source = "epub"
XCU: Source = "xcu"
"""LibreOffice's user settings (``registrymodifications.xcu``)."""
"""Standalone image files (.png, .jpg, .gif, .bmp, .tiff, .webp): one source, whatever the codec."""
ALL_SOURCES: tuple[Source, ...] = (DOCX, XLSX, PPTX, GDOC, GSHEET, GSLIDES)
"""The Office and Google sources (PDF, CSV and images are named where they emit an attribute)."""
EVERY_SOURCE: tuple[Source, ...] = (*ALL_SOURCES, PDF, CSV, IMAGE, EPUB, XCU)
IMAGE_FORMATS = ("png", "jpeg", "gif", "bmp", "tiff", "webp")


def sources_of(format: str, extracted_as: str | None = None) -> tuple[str, ...]:
    """The sources whose extractors built a tree, either of which may declare an attribute:
    the artifact's own (``image`` for any image codec) and, when it was read through a
    twin (``ArtifactInfo.extracted_as``: an OpenDocument file or a CSV read as
    .docx/.xlsx/.pptx), the twin's."""
    own = IMAGE if format in IMAGE_FORMATS else format
    return (own, extracted_as) if extracted_as else (own,)

DOCS: tuple[Source, ...] = (DOCX, GDOC)
SHEETS: tuple[Source, ...] = (XLSX, GSHEET)
SLIDES: tuple[Source, ...] = (PPTX, GSLIDES)

PAGES = "pages"
"""The pseudo-kind under which ``Document.pages[i].attrs`` are declared (pages, slides and
sheet canvases are records, not nodes)."""


@dataclass(frozen=True)
class Attribute:
    """One attribute name of one node kind.

    ``type`` is a JSON type, or several joined by ``|`` (``"string|null"``); ``integer``
    values also satisfy ``number``. ``unit`` names the unit of a number (``pt``,
    ``degrees``, ``fraction``...) or ``None``. ``sources`` lists the formats whose
    extractor emits it.
    """

    name: str
    type: str
    meaning: str
    example: JsonValue
    sources: tuple[Source, ...]
    unit: str | None = None

    @property
    def types(self) -> frozenset[str]:
        return frozenset(self.type.split("|"))

    @property
    def selectable(self) -> bool:
        """True when selectors can test it (``cell[number_format="0.00%"]``): scalar values
        only; lists and objects are read by checks, not selectors."""
        return not (self.types & {"array", "object"}) and self.name.replace("_", "a").isalnum()


def _a(
    name: str,
    type: str,
    meaning: str,
    example: JsonValue,
    sources: tuple[Source, ...],
    *,
    unit: str | None = None,
) -> Attribute:
    return Attribute(name=name, type=type, meaning=meaning, example=example, sources=sources, unit=unit)


# -- attributes several kinds carry with one meaning ------------------------------------
_SHARED: dict[str, Attribute] = {
    a.name: a
    for a in (
        _a("rendered", "boolean", "False when the node has no box in the layout (why: `not_rendered_reason`); absent means drawn", False, ALL_SOURCES),
        _a("not_rendered_reason", "string", "Why the node has no box (unused header, empty paragraph, vector graphic, covered by a merge...)", "empty paragraph (no visible text)", ALL_SOURCES),
        _a("name", "string", "The object's name as the editor shows it in the selection pane", "Picture 1", ALL_SOURCES),
        _a("alt_text", "string", "Alternative text (description) given to the object", "Company logo", ALL_SOURCES),
        _a("shape_id", "string", "The shape's id in the slide/sheet XML (`cNvPr id`)", "4", (PPTX,)),
        _a("object_id", "string", "The Google API objectId of the element", "g1f2e3d4_0_12", (GSLIDES, GDOC)),
        _a("z", "integer", "Drawing order on its slide, 0 = drawn first (at the back)", 2, (PPTX,)),
        _a("hidden", "boolean", "Hidden in the editor (not shown when printed or presented)", True, ALL_SOURCES),
        _a("hyperlink", "string", "Target of the link on the object: URL, `mailto:`, `#slide=N`, `#bookmark` or `ppaction://...`", "https://example.org/report", ALL_SOURCES),
        _a("hyperlink_rid", "string", "Relationship id of a click hyperlink whose target could not be resolved", "rId1", (XLSX,)),
        _a("placeholder_type", "string", "Placeholder role from the layout (`title`, `ctrTitle`, `body`, `obj`, `pic`, `dt`, `ftr`, `sldNum`...)", "title", SLIDES),
        _a("placeholder_idx", "string", "Placeholder index linking the shape to its layout/master placeholder (`p:ph idx`)", "1", (PPTX,)),
        _a("inherited_from", "string", "`layout` or `master`: a non-placeholder shape of the layout/master drawn on this slide", "master", (PPTX,)),
        _a("position_from", "string", "`layout` or `master`: the shape has no position (`a:off`) of its own and takes its placeholder's; `default`: a non-placeholder without one, drawn at (0, 0)", "layout", (PPTX,)),
        _a("size_from", "string", "`layout` or `master`: the shape has no size (`a:ext`) of its own and takes its placeholder's; `default`: a non-placeholder without one, drawn with size 0", "layout", (PPTX,)),
        _a("rotation", "number", "Rotation of the object itself, clockwise", 30.0, SLIDES + (XLSX, DOCX), unit="degrees"),
        _a("rotation_effective", "number", "Rotation as drawn: its own plus that of every enclosing group", 90.0, (PPTX,), unit="degrees"),
        _a("mirrored_drawn", "boolean", "Inside a flipped group: drawn mirrored left-right (then turned by `rotation_drawn`), whatever its own flips say; only where that differs from them", True, (PPTX,)),
        _a("rotation_drawn", "number", "Inside a flipped group: the clockwise turn the page draws after `mirrored_drawn` (a flipped group turns its children the other way)", 270.0, (PPTX,), unit="degrees"),
        _a("flip_h", "boolean", "Mirrored left-right", True, (PPTX, DOCX)),
        _a("flip_v", "boolean", "Mirrored top-bottom", True, (PPTX, DOCX)),
        _a("flip", "string", "Mirroring of a sheet drawing: `h`, `v` or `hv`", "h", (XLSX,)),
        _a("shape_type", "string", "Preset geometry (`rect`, `roundRect`, `ellipse`, `rightArrow`...)", "rect", SLIDES + (XLSX,)),
        _a("geometry", "string", "Preset geometry of a Word drawing shape (`rect`, `bentConnector3`...)", "rect", (DOCX,)),
        _a("fill_type", "string", "How the shape is filled: `solid`, `gradient`, `pattern`, `picture`, `none`", "solid", (PPTX,)),
        _a("fill_alpha", "number", "Opacity of the solid fill (PowerPoint's transparency), when below 1. `style.fill` is the colour drawn: the fill laid over its shadow and what is behind it (the shape below that covers it, else the slide's background), and `direct_style` keeps the stated one; over a picture or a partly covering shape the stated colour is kept", 0.5, (PPTX, GSLIDES), unit="fraction"),
        _a("shadow_alpha", "number", "Opacity of the outer shadow drawn under the object (its own `a:effectLst`, else the theme effect style `p:style/a:effectRef` names: python-pptx's autoshapes have a 35% black one). As LibreOffice draws it: LibreOffice 7.4 ignores the empty `a:effectLst` python-pptx's `shadow.inherit = False` writes, PowerPoint does not", 0.35, (PPTX,), unit="fraction"),
        _a("line_color", "string", "Outline colour", "#4a7ebb", SLIDES),
        _a("line_color_theme", "string", "Theme slot the outline colour comes from (`accent1`, `dk1`...), when it is a theme colour", "accent6", (PPTX,)),
        _a("line_color_theme_mods", "string", "Transforms applied to that theme colour (`lumMod=75000 lumOff=25000`)", "lumMod=75000", (PPTX,)),
        _a("autofit_font_scale", "number", "Font scale applied by shrink-on-overflow autofit (drawn size = size x scale)", 0.9, SLIDES, unit="fraction"),
        _a("autofit", "string", "How the text frame fits its text: `shrink` (normAutofit: text shrunk into the frame), `shape` (spAutoFit: the frame grows to its text) or `none`", "shrink", (PPTX,)),
        _a("autofit_from", "string", "`layout` or `master`: the autofit setting is inherited from that placeholder (LibreOffice does not shrink such text)", "master", (PPTX,)),
        _a("autofit_line_spacing_reduction", "number", "Line spacing reduction applied by normAutofit", 0.1, (PPTX,), unit="fraction"),
        _a("drawn_text_box", "object", "Where the frame's text is drawn (layout attached): `{x0, top, x1, bottom}`, the union of its paragraphs' layout boxes", {"x0": 43.2, "top": 129.88, "x1": 611.7, "bottom": 796.6}, SLIDES, unit="pt"),
        _a("text_overflows", "boolean", "The drawn text leaves its frame by more than 1 pt (layout attached)", True, SLIDES),
        _a("drawn_font_scale", "number", "Drawn / stated size of the frame's text in the render, when they differ (autofit shrink)", 0.519, SLIDES, unit="fraction"),
        _a("insets_pt", "array", "Text insets of the frame `[left, top, right, bottom]`, when not the defaults (7.2, 3.6, 7.2, 3.6)", [0.0, 0.0, 0.0, 0.0], (PPTX,), unit="pt"),
        _a("stated_box", "object", "A frame resized to fit its text (`autofit: shape`, layout attached): the box the file states, `{x0, top, x1, bottom}`; the node's box is where LibreOffice draws the frame, sized to its text plus insets (centred on the stated centre when unwrapped; kept at the edge its text is anchored to)", {"x0": 72.0, "top": 72.0, "x1": 504.0, "bottom": 100.8}, (PPTX,), unit="pt"),
        _a("graphic", "string", "What a graphic frame holds when it is not a table or chart: `smartart`, `ole`, or the graphicData URI in sheets", "smartart", (PPTX, XLSX)),
        _a("alternate_content", "string", "`choice` or `fallback`: the shape came from that branch of `mc:AlternateContent`", "fallback", (PPTX,)),
        # anchoring in a sheet
        _a("anchor", "string", "How a drawing is anchored to the sheet: `twoCellAnchor`, `oneCellAnchor`, `absoluteAnchor`; in Google Sheets the anchor cell", "twoCellAnchor", SHEETS),
        _a("from", "string", "Cell under the drawing's top-left corner", "C3", (XLSX,)),
        _a("to", "string", "Cell under the drawing's bottom-right corner (two-cell anchors)", "H20", (XLSX,)),
        _a("edit_as", "string", "How the drawing follows cell resizes: `twoCell`, `oneCell` or `absolute`", "oneCell", (XLSX,)),
        # placement in a Word document
        _a("placement", "string", "`inline` (in the text line) or `floating` (anchored, positioned on the page)", "floating", DOCS),
        _a("wrap", "string", "Text wrapping around a floating object: `square`, `tight`, `through`, `topandbottom`, `none`...", "square", DOCS),
        _a("behind_text", "boolean", "A floating object drawn behind the text", False, DOCS),
        _a("width", "number", "Width of the object as the file states it (extent)", 100.0, DOCS, unit="pt"),
        _a("height", "number", "Height of the object as the file states it (extent)", 100.0, DOCS, unit="pt"),
        _a("position_h_relative_from", "string", "What a floating object's horizontal position is measured from: `page`, `margin`, `column`, `character`...", "margin", DOCS),
        _a("position_v_relative_from", "string", "What a floating object's vertical position is measured from: `page`, `margin`, `paragraph`, `line`...", "paragraph", DOCS),
        _a("position_h_offset", "number", "Horizontal offset from `position_h_relative_from`", 300.0, DOCS, unit="pt"),
        _a("position_v_offset", "number", "Vertical offset from `position_v_relative_from`", 0.0, DOCS, unit="pt"),
        _a("position_h_align", "string", "Horizontal alignment instead of an offset: `left`, `center`, `right`, `inside`, `outside`", "right", (DOCX,)),
        _a("position_v_align", "string", "Vertical alignment instead of an offset: `top`, `center`, `bottom`, `inside`, `outside`", "top", (DOCX,)),
        _a("vml", "boolean", "Read from legacy VML markup (`w:pict`) rather than DrawingML", True, (DOCX,)),
        _a("section", "integer", "0-based index of the document section the node belongs to (see `document.sections`)", 0, DOCS),
        _a("part", "string", "Package part the node was read from", "word/header1.xml", (DOCX, PPTX)),
        # structured document tags (content controls)
        _a("sdt", "boolean", "Inside a content control (`w:sdt`)", True, (DOCX,)),
        _a("sdt_type", "string", "Kind of content control: `text`, `richText`, `date`, `dropDownList`, `comboBox`, `checkbox`, `picture`...", "text", (DOCX,)),
        _a("sdt_alias", "string", "The content control's title (`w:alias`)", "Customer name", (DOCX,)),
        _a("sdt_tag", "string", "The content control's tag (`w:tag`)", "customer", (DOCX,)),
        # images
        _a("blob", "string", "sha256 of the image bytes as drawn (after cropping) in `Document.blobs`", "240d9d53...", ALL_SOURCES),
        _a("original_blob", "string", "sha256 of the uncropped original image in `Document.blobs`", "1033e859...", SLIDES),
        _a("image_part", "string", "Package part holding the picture", "word/media/image1.png", (DOCX, PPTX)),
        _a("crop", "object", "Cropped share of each side, as fractions of the original: `{left, top, right, bottom}` (Google: `leftOffset`...)", {"left": 0.1, "top": 0.05, "right": 0.2}, ALL_SOURCES),
        _a("title", "string|null", "Title shown by the editor", "Sales by quarter", ALL_SOURCES),
        # equations: one name on runs and pictures, so `[equation]` finds every kind of them
        _a("equation", "boolean", "An equation: the text of an OMML or Google Docs equation, or the preview picture of a legacy equation object (Equation Editor 3, MathType); `equation_format` tells which", True, DOCS),
        _a("equation_format", "string", "How the equation is stored: `omml` (Office Math in the text) or `ole` (an embedded equation object drawn by its preview picture, program id in `ole_prog_id`)", "omml", (DOCX,)),
    )
}


def _shared(name: str, sources: tuple[Source, ...]) -> Attribute:
    """A shared attribute, as emitted for one kind by these sources."""
    return replace(_SHARED[name], sources=sources)


_RENDER_STATE_DOCS = (_shared("rendered", (DOCX, PPTX, GDOC)), _shared("not_rendered_reason", (DOCX, PPTX, GDOC)))
_SLIDE_SHAPE = (
    _shared("name", (DOCX, PPTX, XLSX, GDOC)),
    _shared("alt_text", (DOCX, PPTX, XLSX, GDOC, GSLIDES)),
    _shared("shape_id", (PPTX,)),
    _shared("object_id", (GDOC, GSLIDES)),
    _shared("z", (PPTX,)),
    _shared("hidden", (PPTX,)),
    _shared("hyperlink", (DOCX, PPTX, GSLIDES)),
    _shared("hyperlink_rid", (XLSX,)),
    _shared("placeholder_type", SLIDES),
    _shared("placeholder_idx", (PPTX,)),
    _a("placeholder_index", "integer", "Placeholder index in Google Slides (the .pptx `placeholder_idx`)", 1, (GSLIDES,)),
    _shared("inherited_from", (PPTX,)),
    _shared("position_from", (PPTX,)),
    _shared("size_from", (PPTX,)),
    _shared("rotation", SLIDES + (XLSX, DOCX)),
    _shared("rotation_effective", (PPTX,)),
    _shared("mirrored_drawn", (PPTX,)),
    _shared("rotation_drawn", (PPTX,)),
    _shared("flip_h", (PPTX, DOCX)),
    _shared("flip_v", (PPTX, DOCX)),
    _shared("flip", (XLSX,)),
    _shared("shape_type", SLIDES + (XLSX,)),
    _shared("fill_type", (PPTX,)),
    _shared("fill_alpha", (PPTX, GSLIDES)),
    _shared("shadow_alpha", (PPTX,)),
    _a("style_sources", "object", "Properties of the displayed `style` drawn otherwise than the object states them: `{fill: transparency}` (a see-through fill laid over what is behind it)", {"fill": "transparency"}, (PPTX, GSLIDES)),
    _a("direct_style", "object", "The object's own values of the properties listed in `style_sources` (what `layer: direct` in colour checks reads)", {"fill": "#ff0000", "fill_theme": None, "fill_theme_mods": None}, (PPTX, GSLIDES)),
    _shared("line_color", SLIDES),
    _shared("line_color_theme", (PPTX,)),
    _shared("line_color_theme_mods", (PPTX,)),
    _shared("alternate_content", (PPTX,)),
    _shared("anchor", SHEETS),
    _shared("from", (XLSX,)),
    _shared("to", (XLSX,)),
    _shared("edit_as", (XLSX,)),
    _shared("rendered", (DOCX, PPTX)),
    _shared("not_rendered_reason", (DOCX, PPTX)),
)
_DRAWN_TEXT = tuple(_shared(n, SLIDES) for n in ("drawn_text_box", "text_overflows", "drawn_font_scale"))
_TEXT_FRAME = (
    _shared("autofit_font_scale", SLIDES),
    *(_shared(n, (PPTX,)) for n in ("autofit", "autofit_from", "autofit_line_spacing_reduction", "insets_pt", "stated_box")),
    *_DRAWN_TEXT,
)
_WORD_FLOAT = (
    _shared("placement", DOCS),
    _shared("wrap", DOCS),
    _shared("behind_text", DOCS),
    _shared("width", DOCS),
    _shared("height", DOCS),
    _shared("position_h_relative_from", DOCS),
    _shared("position_v_relative_from", DOCS),
    _shared("position_h_offset", DOCS),
    _shared("position_v_offset", DOCS),
    _shared("position_h_align", (DOCX,)),
    _shared("position_v_align", (DOCX,)),
    _shared("vml", (DOCX,)),
)
_SDT = tuple(_shared(n, (DOCX,)) for n in ("sdt", "sdt_type", "sdt_alias", "sdt_tag"))
_SECTION_FIELDS = (
    "list of `{index, page_width, page_height, orientation, margins: {top, bottom, left, right, header, footer, gutter}, "
    "columns, start, title_page}` in points, one per section; `orientation` is the drawn page's (wider than tall: "
    "`landscape`), and a `w:orient` that disagrees with the size is kept as `orientation_stated`; a .docx section's "
    "`w:pgNumType` adds `page_number_start` (numbering restarts there) and `page_number_format` (`decimal`, "
    "`lowerRoman`, `upperLetter`...) when it states them"
)


# -- the reference, kind by kind --------------------------------------------------------
ATTRIBUTES: dict[str, tuple[Attribute, ...]] = {
    "document": (
        _a("title", "string|null", "Title of the Google file; of an EPUB, its `dc:title`", "Quarterly report", (GDOC, GSHEET, GSLIDES, EPUB)),
        _a("language", "string", "The EPUB's `dc:language` (BCP 47)", "en", (EPUB,)),
        _a("epub_version", "string", "EPUB version its package document states (`2.0`, `3.0`)", "3.0", (EPUB,)),
        _a("document_id", "string|null", "Google Docs document id", "1DocFixture", (GDOC,)),
        _a("spreadsheet_id", "string|null", "Google Sheets spreadsheet id", "1SheetFixture", (GSHEET,)),
        _a("presentation_id", "string|null", "Google Slides presentation id", "1SlidesFixture", (GSLIDES,)),
        _a("sections", "array", "Page setup of the document: " + _SECTION_FIELDS, [{"index": 0, "page_width": 612.0, "page_height": 792.0, "orientation": "portrait"}], DOCS),
        _a("even_and_odd_headers", "boolean", "Different headers/footers on even and odd pages (`w:evenAndOddHeaders`)", False, (DOCX,)),
        _a("theme_colors", "object", "The file's theme colours by slot (`dk1`, `lt1`, `dk2`, `lt2`, `accent1`..`accent6`, `hlink`, `folHlink`): what `color_theme`/`fill_theme` of a Style refer to and what `theme:` colour specs of checks resolve against (.pptx: the first slide's master; a slide with another master's theme has its own)", {"dk1": "#000000", "accent1": "#4472c4"}, (DOCX, PPTX, XLSX)),
        _a("layout_text_coverage", "number", "Share of the tree's visible characters found in the rendered PDF (1.0 = every character boxed)", 1.0, (DOCX,) + SLIDES, unit="fraction"),
        _a("layout_key_chars", "integer", "Visible characters of the tree that were looked for in the render", 4479, (DOCX,) + SLIDES, unit="chars"),
        _a("layout_matched_chars", "integer", "Of those, the characters found in the render", 4479, (DOCX,) + SLIDES, unit="chars"),
        _a("layout_paragraphs", "integer", "Paragraphs with visible text on the slides the PDF shows (layout attached)", 87, SLIDES),
        _a("layout_paragraphs_boxed", "integer", "Of those, the paragraphs whose drawn box was found (half their characters or more)", 87, SLIDES),
        _a("layout_source", "string", "What drew the PDF the slides' text boxes come from: `libreoffice` or `drive-pdf-export`", "libreoffice", SLIDES),
        _a("active_sheet", "string", "Id (name) of the sheet that opens first", "Data", (XLSX,)),
        _a("date1904", "boolean", "Workbook dates count from 1904 (old Mac Excel) instead of 1900", False, (XLSX,)),
        _a("default_font", "object", "The workbook's default font `{name, size}` (size in pt); sets column width units", {"name": "Calibri", "size": 11.0}, (XLSX,)),
        _a("max_digit_width_px", "integer", "Width of the widest digit of the default font at 96 dpi: Excel's column width unit", 7, (XLSX,), unit="px"),
        _a("locale", "string|null", "Spreadsheet locale (number and date formats follow it)", "en_US", (GSHEET,)),
        _a("named_ranges", "object", "Named ranges (Excel defined names that stand for one range): name -> A1 range with sheet; a name local to one sheet is keyed `Sheet!name`", {"Totals": "Data!D2:D3"}, (XLSX, GSHEET)),
        _a("slide_width", "number", "Slide width", 720.0, SLIDES, unit="pt"),
        _a("slide_height", "number", "Slide height", 405.0, SLIDES, unit="pt"),
        _a("orientation", "string", "Slide orientation: `landscape`, `portrait` or `square`", "landscape", SLIDES),
        _a("slide_size_type", "string", "PowerPoint's slide size preset as the file states it (`p:sldSz@type`: `screen4x3`, `screen16x9`, `A4`...; `custom` when none; python-pptx keeps `screen4x3` when it resizes a deck: `slide_width`/`slide_height` are the size)", "screen4x3", (PPTX,)),
        _a("first_slide_number", "integer", "Number of the first slide when it is not 1 (`firstSlideNum`)", 0, (PPTX,)),
    ),
    "slide": (
        _a("index", "integer", "0-based position of the slide in the deck", 0, SLIDES),
        _a("number", "integer", "Slide number: what a slide-number field shows on it (1-based, or from `first_slide_number`)", 1, SLIDES),
        _a("name", "string", "Name given to the slide (`p:cSld name`), when it has one", "Agenda", (PPTX,)),
        _a("transition", "string", "Transition effect into the slide (`fade`, `push`, `wipe`, `vortex`...; `none`: timing only)", "fade", (PPTX,)),
        _a("transition_speed", "string", "Transition speed: `slow`, `medium` or `fast`", "fast", (PPTX,)),
        _a("transition_duration_ms", "integer", "Transition duration (PowerPoint 2010 `p14:dur`)", 2000, (PPTX,), unit="ms"),
        _a("advance_on_click", "boolean", "The slide advances on a click (false: only by its timer)", True, (PPTX,)),
        _a("advance_after_ms", "integer", "The slide advances by itself after this long", 3000, (PPTX,), unit="ms"),
        _a("layout", "string|null", "Name of the slide layout", "Title and Content", SLIDES),
        _a("theme_colors", "object", "The theme colours of this slide's master, when they differ from the deck's (`document.theme_colors`)", {"accent1": "#156082"}, (PPTX,)),
        _a("master", "string", "Name of the slide master", "Simple Light", (GSLIDES,)),
        _a("section", "string", "Name of the deck section the slide is in", "Introduction", (PPTX,)),
        _shared("hidden", SLIDES),
        _shared("part", (PPTX,)),
        _shared("object_id", (GSLIDES,)),
        _a("background_type", "string", "Slide background fill: `solid`, `gradient`, `pattern`, `picture`, `none`", "solid", SLIDES),
        _a("background_color", "string", "Background colour (solid fills; a gradient's first stop)", "#ffffff", SLIDES),
        _a("background_blob", "string", "sha256 of a picture background in `Document.blobs`", "cc3f9a42...", SLIDES),
        _a("background_from", "string", "Where the background is defined: `slide`, `layout`, `master` or `default`", "master", (PPTX,)),
    ),
    "sheet": (
        _a("name", "string", "Sheet name (its tab label)", "Data", SHEETS),
        _a("index", "integer", "0-based position of the sheet among the tabs", 0, SHEETS),
        _a("sheet_id", "integer|null", "Google Sheets sheetId (the `gid` of the URL)", 0, (GSHEET,)),
        _a("sheet_type", "string", "`worksheet`, `chartsheet`, `dialogsheet` or `macrosheet`", "worksheet", SHEETS),
        _a("state", "string", "Tab visibility: `visible`, `hidden` or `veryHidden`", "visible", SHEETS),
        _shared("hidden", (GSHEET,)),
        _a("missing_part", "boolean", "The workbook lists the sheet but its part is missing from the package", True, (XLSX,)),
        _a("tab_color", "string", "Colour of the sheet tab", "#7fd13b", SHEETS),
        _a("tab_selected", "boolean", "The tab is selected in the saved view", True, (XLSX,)),
        _a("used_range", "string", "A1 range from the first to the last cell with content", "A1:D3", SHEETS),
        _a("declared_dimension", "string", "The range the file declares (`<dimension ref>`), which may disagree with the content", "A1:D3", (XLSX,)),
        _a("row_count", "integer", "Rows in the grid (including empty ones)", 1000, (GSHEET,)),
        _a("col_count", "integer", "Columns in the grid (including empty ones)", 26, (GSHEET,)),
        _a("frozen_rows", "integer", "Rows frozen at the top (0 = none)", 1, SHEETS),
        _a("frozen_cols", "integer", "Columns frozen at the left (0 = none)", 0, SHEETS),
        _a("freeze_panes", "string", "Top-left cell of the scrolling pane (`A2` = first row frozen)", "A2", SHEETS),
        _a("split_panes", "object", "Split (not frozen) panes: `{x_split, y_split}` as stored (1/20 pt)", {"x_split": None, "y_split": "600"}, (XLSX,)),
        _a("show_grid_lines", "boolean", "False when gridlines are turned off in the view", False, (XLSX,)),
        _a("hide_gridlines", "boolean", "True when gridlines are turned off (Google Sheets)", True, (GSHEET,)),
        _a("right_to_left", "boolean", "The sheet is laid out right to left", True, (XLSX,)),
        _a("zoom", "integer", "Zoom of the saved view", 100, (XLSX,), unit="percent"),
        _a("default_row_height_pt", "number", "Height of rows without their own height", 15.0, (XLSX,), unit="pt"),
        _a("default_col_width_pt", "number", "Width of columns without their own width", 48.0, (XLSX,), unit="pt"),
        _a("max_digit_width_px", "integer", "Widest digit of the default font at 96 dpi (Excel's column width unit)", 7, (XLSX,), unit="px"),
        _a("col_widths", "array", "Column widths as `[first_col, last_col, width_pt, hidden]` (1-based columns)", [[1, 1, 90.0, False]], (XLSX,)),
        _a("row_heights", "array", "Row heights as `[row, height_pt, hidden, custom]` (1-based rows)", [[1, 15.75, False, True]], (XLSX,)),
        _a("hidden_rows", "array", "1-based numbers of hidden rows", [6], (GSHEET,)),
        _a("hidden_cols", "array", "Letters of hidden columns", ["C"], (GSHEET,)),
        _a("merges", "array", "Merged ranges in A1 notation", ["A1:E1"], SHEETS),
        _a("conditional_formats", "array", "Conditional formatting rules in priority order: `{ranges, type, operator, formulas, priority, stop_if_true, style, evaluated, not_evaluated, matched_cells, evaluated_on}` (+ `rank`, `percent`, `bottom`, `above_average`, `equal_average`, `std_dev`, `text`, `time_period`, `colorScale`/`dataBar`/`iconSet` thresholds); cells name the rules that apply to them in `conditional_rules`", [{"ranges": "B2:B6", "type": "cellIs", "operator": "greaterThan", "formulas": ["100"], "evaluated": True, "matched_cells": 3}], SHEETS),
        _a("data_validations", "array", "Data validation rules: `{ranges, type, operator, formula1, formula2, values, checkbox, allow_blank, in_cell_dropdown, prompt}`; cells point at theirs with `validation`", [{"ranges": "D2:D6", "type": "list", "values": ["TRUE", "FALSE"]}], (XLSX,)),
        _a("tables", "array", "Excel tables (ListObjects): `{name, ref, header_row_count, totals_row_count, columns, style, style_flags, autofilter, part}`; `style_flags`: `{row_stripes, column_stripes, first_column, last_column}`", [{"name": "SalesTable", "ref": "A1:D6", "columns": ["Month", "Revenue"]}], (XLSX,)),
        _a("filter", "string", "Range of the basic filter", "A1:D3", (GSHEET,)),
        _a("filter_views", "array", "Titles of the saved filter views", ["Open items"], (GSHEET,)),
        _a("banded_ranges", "array", "Ranges with alternating colours (banding)", ["A1:D10"], (GSHEET,)),
        _a("protected_ranges", "array", "Protected ranges: `{range, warning_only, description}`", [{"range": "A1:1", "warning_only": True, "description": "header"}], (GSHEET,)),
        _a("has_legacy_drawing", "boolean", "The sheet has VML drawings (old-style comments, form controls)", True, (XLSX,)),
        _a("autofilter", "string", "Range of the sheet's autofilter (its first row holds the filter buttons)", "A1:D20", (XLSX,)),
        _a("autofilter_state", "object", "The autofilter in force: `{ref, columns: [{column, values | custom | top10 | dynamic | color}], sort}`", {"ref": "A1:C4", "columns": [{"column": "C", "values": ["x"]}]}, (XLSX,)),
        _a("sort_state", "object", "The sort Excel applied (Data > Sort, or the autofilter's): `{ref, conditions: [{ref, column, descending, by}]}`, keys in order", {"ref": "A1:C4", "conditions": [{"ref": "B2:B4", "column": "B", "descending": True}]}, (XLSX,)),
        _a("sorted_by", "string", "Column letter of the first sort key (from `sort_state`)", "B", (XLSX,)),
        _a("sort_descending", "boolean", "The first sort key is descending", True, (XLSX,)),
        _a("sparklines", "array", "Sparklines drawn in cells: `[{cell, source, type, color}]` (`type` line, column or stacked)", [{"cell": "F2", "source": "Data!A2:E2", "type": "line", "color": "#376092"}], (XLSX,)),
        _a("column_styles", "array", "Formats of whole columns (`<col style>`): `[{min, max, style}]`, 1-based columns, `style` the properties that differ from the default (fill, bold, number_format...): what empty cells of the column show", [{"min": 4, "max": 4, "style": {"fill": "#ffff00"}}], (XLSX,)),
    ),
    "header": (
        _a("type", "string", "Which pages it serves: `default`, `first` or `even` (Google: `default`, `first_page`, `even_page`)", "default", DOCS),
        _shared("section", DOCS),
        _a("sections", "array", "The sections that show it (0-based): its own, and those that inherit it", [0, 1], (DOCX,)),
        _shared("part", (DOCX,)),
        _a("header_id", "string", "Google Docs header id", "kix.e0lsnkbangmr", (GDOC,)),
        *_RENDER_STATE_DOCS,
    ),
    "footer": (
        _a("type", "string", "Which pages it serves: `default`, `first` or `even` (Google: `default`, `first_page`, `even_page`)", "default", DOCS),
        _shared("section", DOCS),
        _a("sections", "array", "The sections that show it (0-based): its own, and those that inherit it", [0, 1], (DOCX,)),
        _shared("part", (DOCX,)),
        _a("footer_id", "string", "Google Docs footer id", "kix.e0lsnkbangmr", (GDOC,)),
        *_RENDER_STATE_DOCS,
    ),
    "note": (
        _shared("part", (PPTX,)),
        _shared("rendered", (PPTX,)),
        _shared("not_rendered_reason", (PPTX,)),
    ),
    "footnote": (
        _a("note_type", "string", "`footnote` or `endnote`", "footnote", DOCS + (EPUB,)),
        _a("note_id", "string", "The note's id, as referenced by `footnote_ref`/`endnote_ref` on runs", "1", DOCS + (EPUB,)),
        _a("label", "string", "The mark printed for the note (`1`, `*`, `i`...)", "1", DOCS),
        *_RENDER_STATE_DOCS,
    ),
    "comment": (
        _a("author", "string", "Who wrote the comment", "Reviewer", (DOCX, PPTX, XLSX, GSHEET)),
        _a("initials", "string", "The author's initials", "RV", (DOCX,)),
        _a("date", "string", "When the comment was written (ISO 8601)", "2024-01-02T03:04:05Z", (DOCX, PPTX)),
        _a("comment_id", "string", "The comment's id in the file", "0", (DOCX,)),
        _a("anchor_ids", "array", "Ids of the nodes the comment is anchored to", ["p12"], (DOCX,)),
        _a("anchor_text", "string", "The commented text", "checked twice", (DOCX,)),
        _a("threaded", "boolean", "An Excel threaded comment (a conversation), not a note; replies are `comment` children", True, (XLSX,)),
        _a("created", "string", "When the threaded comment was written (ISO 8601, as saved)", "2026-06-18T17:12:37.41", (XLSX,)),
        _a("replies", "integer", "Number of replies to the thread", 1, (XLSX,)),
        _a("reply", "boolean", "This comment answers the thread it is under", True, (XLSX,)),
        _a("resolved", "boolean", "The thread was marked resolved", True, (XLSX,)),
        _shared("part", (PPTX,)),
        _a("x", "number", "Position of the comment marker on the slide (from the left)", 725.5, (PPTX,), unit="pt"),
        _a("y", "number", "Position of the comment marker on the slide (from the top)", 207.75, (PPTX,), unit="pt"),
        _shared("rendered", (DOCX, PPTX, XLSX, GSHEET)),
        _shared("not_rendered_reason", (DOCX, PPTX, XLSX, GSHEET)),
    ),
    "group": (
        *_SLIDE_SHAPE,
        *_WORD_FLOAT,
        _shared("graphic", (PPTX,)),
        _a("role", "string", "What the group stands for in Google Docs: `tab` (a document tab) or `table_of_contents`", "tab", (GDOC,)),
        _a("tab_id", "string", "Google Docs tab id", "t.0", (GDOC,)),
        _shared("title", (GDOC,)),
        _a("nesting_level", "integer", "Depth of a Google Docs tab (0 = top-level tab)", 0, (GDOC,)),
        _a("sections", "array", "Page setup of the tab: " + _SECTION_FIELDS, [{"index": 0, "page_width": 612.0, "page_height": 792.0}], (GDOC,)),
    ),
    "textbox": (
        *_SLIDE_SHAPE,
        *_WORD_FLOAT,
        _shared("geometry", (DOCX,)),
        *_TEXT_FRAME,
        _shared("section", (DOCX,)),
        _a("anchor_paragraph", "string", "Id of the paragraph a Word text box is anchored in", "p9", (DOCX,)),
    ),
    "paragraph": (
        _a("style_name", "string", "Name of the paragraph style (`Normal`, `Heading 1`, `List Paragraph`...)", "Heading 1", DOCS),
        _a("named_style", "string", "Google Docs named style type (`NORMAL_TEXT`, `TITLE`, `HEADING_1`...)", "HEADING_1", (GDOC,)),
        _a("heading_level", "integer", "Heading level: 1 for Heading 1 ... 9; 0 for Title (EPUB: `h1`..`h6`)", 1, DOCS + (EPUB,)),
        _a("heading_id", "string", "Google Docs heading id (the target of `#heading=` links)", "h.4u3anmqa57uf", (GDOC,)),
        _a("deleted_drawings", "integer", "Pictures, shapes or text boxes deleted with track changes on in this paragraph: like deleted text, they are not nodes of the tree", 1, (DOCX,)),
        _a("list_level", "integer", "0-based list nesting level (present only on list items); in .docx an item in Word's nested list styles ('List Bullet 2'...) is one level deeper per step, as it is drawn", 0, ALL_SOURCES + (EPUB,)),
        _a("list_ordered", "boolean", "A numbered (true) or bulleted (false) list item", False, ALL_SOURCES + (EPUB,)),
        _shared("part", (EPUB,)),
        _a("list_format", "string", "Number format of the item: `bullet`, `decimal`, `lowerLetter`, `upperRoman`... or `none`", "decimal", DOCS),
        _a("list_label", "string", "The label printed before the item (`1.`, `a)`, `•`)", "1.", DOCS),
        _a("list_id", "string", "Id of the list the item belongs to (items of one list share it)", "1", DOCS),
        _a("list_start", "integer", "First number of an auto-numbered list", 1, (PPTX,)),
        _a("list_glyph", "string", "Bullet glyph of a Google Slides list item", "●", (GSLIDES,)),
        _a("bullet", "string", "Bullet of a slide paragraph: the character, an auto-number scheme (`arabicPeriod`) or `picture`", "•", SLIDES),
        _a("level", "integer", "Outline level of a slide paragraph (0 = top), whether or not it has a bullet", 0, SLIDES),
        _a("checklist", "boolean", "A Google Docs checklist item", True, (GDOC,)),
        _shared("hidden", (DOCX,)),
        _a("page_break_before", "boolean", "Starts on a new page (paragraph property)", True, (DOCX,)),
        _a("page_break_after", "boolean", "Followed by a page break (the paragraph holds a break after its text)", True, (DOCX,)),
        _a("page_breaks", "integer", "Number of page breaks inside the paragraph", 1, (DOCX,)),
        _a("page_break", "boolean", "Holds a page break", True, (GDOC,)),
        _a("column_breaks", "integer", "Number of column breaks inside the paragraph", 1, (DOCX,)),
        _a("column_break", "boolean", "Holds a column break", True, (GDOC,)),
        _a("horizontal_rule", "boolean", "Holds a horizontal rule", True, (GDOC,)),
        _shared("section", (DOCX,)),
        _a("lines", "integer", "Number of printed lines the paragraph (a block of consecutive lines) holds; on slides, lines drawn in the render (layout attached)", 4, (PDF, IMAGE) + SLIDES),
        _a("line_boxes", "array", "One `{x0, top, x1, bottom}` per drawn line of a slide paragraph (layout attached; its page is the paragraph's)", [{"x0": 43.2, "top": 129.88, "x1": 398.2, "bottom": 169.6}], SLIDES, unit="pt"),
        _a("layout_match", "number", "Share of the slide paragraph's characters found in the render, when not all were (below 0.5: its box stays its frame's)", 0.857, SLIDES, unit="fraction"),
        _a("ocr", "boolean", "The paragraph was read by OCR (`load(..., ocr=True)`), not from a text layer", True, (PDF, IMAGE)),
        _a("section_break", "string", "The paragraph ends its section; how the next one starts: `nextPage`, `continuous`, `evenPage`, `oddPage`", "nextPage", (DOCX,)),
        _a("space_before", "number", "Space above the paragraph (`w:spacing w:before`; auto spacing is 14)", 12.0, (DOCX,), unit="pt"),
        _a("space_after", "number", "Space below the paragraph (`w:spacing w:after`)", 10.0, (DOCX,), unit="pt"),
        _a("line_spacing", "number", "Line spacing: a multiple of single spacing when `line_spacing_rule` is `multiple` (1.15), else points", 1.15, (DOCX,)),
        _a("line_spacing_rule", "string", "`multiple` (proportional), `exact` or `at_least` (points)", "multiple", (DOCX,)),
        _a("indent_left", "number", "Left (start) indent of the paragraph's lines, from the text margin", 36.0, (DOCX,), unit="pt"),
        _a("indent_right", "number", "Right (end) indent", 0.0, (DOCX,), unit="pt"),
        _a("indent_first_line", "number", "Extra indent of the first line (0 when hanging)", 18.0, (DOCX,), unit="pt"),
        _a("indent_hanging", "number", "How far the first line hangs back left of `indent_left` (list items); 0 when none", 18.0, (DOCX,), unit="pt"),
        _a("tab_stops", "array", "Custom tab stops, left to right: `{position (pt from the text margin), align: left|center|right|decimal|bar, leader: none|dot|hyphen|underscore|heavy|middleDot}`", [{"position": 216.0, "align": "center", "leader": "dot"}], (DOCX,)),
        _a("keep_with_next", "boolean", "Kept on the same page as the next paragraph", True, (DOCX,)),
        _a("keep_lines", "boolean", "Lines kept together on one page", True, (DOCX,)),
        _a("widow_control", "boolean", "Widow/orphan control on", True, (DOCX,)),
        _a("contextual_spacing", "boolean", "No space between paragraphs of the same style", True, (DOCX,)),
        *_SDT,
        *_RENDER_STATE_DOCS,
    ),
    "run": (
        _shared("hyperlink", (DOCX, PPTX, GDOC, GSLIDES, PDF, EPUB)),
        _a("ocr_conf", "number", "Tesseract's confidence in the word, 0-100", 91.5, (PDF, IMAGE)),
        _a("font_name", "string", "PostScript name of the embedded font that drew the word (subset tag removed); `style.font` is its family", "Carlito-Bold", (PDF,)),
        _a("field", "string", "The field the run shows: `PAGE`, `NUMPAGES`, `DATE`, `TOC`... (.pptx: `slidenum`, `datetime`...)", "PAGE", (DOCX, PPTX)),
        _a("field_result_stored", "string", "A rendered header's or footer's PAGE / NUMPAGES run, or a DATE / TIME field with a picture: the result the file stored (often stale, or empty when none was written); the run's text is what its first printed page shows, or the moment of loading in the field's picture", "1", (DOCX,)),
        _a("auto_text", "string", "Google auto text: `PAGE_NUMBER`, `PAGE_COUNT`, `SLIDE_NUMBER`", "SLIDE_NUMBER", (GDOC, GSLIDES)),
        _a("footnote_ref", "string", "The run is a footnote reference mark; the note's `note_id`", "1", DOCS + (EPUB,)),
        _a("endnote_ref", "string", "The run is an endnote reference mark; the note's `note_id`", "1", (DOCX,)),
        _a("tracked", "string", "Tracked change (suggestion in Google Docs): `insert` or `delete`", "insert", DOCS),
        _a("deleted_text", "string", "Text of a tracked deletion (the run's own text is empty: it is not shown)", "deleted", DOCS),
        _a("hidden_text", "string", "Text of a hidden run (`w:vanish`: not shown nor printed; the run's own text is empty)", "internal note", (DOCX,)),
        _a("caps", "boolean", "Shown in capitals (`w:caps`, .pptx `cap=\"all\"`); the run's text is as typed, and case-sensitive text checks read it in capitals", True, (DOCX, PPTX)),
        _a("small_caps", "boolean", "Shown in small capitals (`w:smallCaps`, .pptx `cap=\"small\"`)", True, (DOCX, PPTX)),
        _a("color_stated_rgb", "string", "The `w:val` of a `w:color` that also names a theme colour, when visibly apart: the style's colour is the theme's (as Word draws it), LibreOffice 7.4 paints this one", "#000000", (DOCX,)),
        _shared("hidden", (DOCX,)),
        _a("math", "boolean", "Text of an equation (OMML)", True, (DOCX,)),
        _shared("equation", DOCS),
        _shared("equation_format", (DOCX,)),
        _a("layout_match", "number", "How well the run's text matched the render when its box was found by fuzzy alignment (1 = exact)", 0.857, (DOCX,) + SLIDES, unit="fraction"),
        _a("style_sources", "object", "Properties of the displayed `style` that come from another layer than the run's own format: `{color: hyperlink}` (a link is drawn in the theme's `hlink` colour whatever colour the run states) or `{color: transparency}` (a see-through colour, laid over its shape's fill or the slide's background)", {"color": "hyperlink"}, (PPTX,)),
        _a("color_alpha", "number", "Opacity of the run's stated colour (`a:alpha`, PowerPoint's transparency), when below 1; `style.color` is the colour drawn, over its backdrop", 0.25, (PPTX,), unit="fraction"),
        _a("direct_style", "object", "The run's own values of the properties listed in `style_sources` (what `layer: direct` in colour and format checks reads)", {"color": "#007b8a", "color_theme": None, "color_theme_mods": None}, (PPTX,)),
        _a("field_stored_text", "string", "What the file stored for a slide-number field when it differs from the number shown (`‹#›` in layouts, a stale number)", "‹#›", (PPTX,)),
        *_SDT,
        _a("character_style", "string", "Name of the run's character style (`Strong`, `Hyperlink`...), when it has one", "Strong", (DOCX,)),
        _a("underline_style", "string", "Kind of underline when underlined: `single`, `double`, `thick`, `dotted`, `dash`, `wave`, `words`...", "double", (DOCX,)),
        _shared("rendered", (DOCX, PPTX, GDOC)),
        _shared("not_rendered_reason", (DOCX, PPTX, GDOC)),
    ),
    "table": (
        _a("rows", "integer", "Number of rows", 4, DOCS + SLIDES + (EPUB,)),
        _a("cols", "integer", "Number of columns (grid columns)", 3, DOCS + SLIDES + (EPUB,)),
        _shared("part", (EPUB,)),
        _a("style_name", "string", "Name of the Word table style", "Table Grid", (DOCX,)),
        _a("table_style", "string", "Name of the PowerPoint table style", "Medium Style 2 – Accent 1", (PPTX,)),
        _a("rows_without_height", "integer", "Rows stored with height 0 (PowerPoint sizes them to their text; their size comes from the render)", 1, (PPTX,)),
        _a("frame_box", "object", "The table frame as the file states it `{x0, top, x1, bottom}`, kept when rows were sized from the render", {"x0": 72.0, "top": 144.0, "x1": 504.0, "bottom": 201.6}, SLIDES, unit="pt"),
        _a("nested", "boolean", "The table is inside another table's cell", True, (DOCX, EPUB)),
        _a("align", "string", "Horizontal alignment of the table between the margins: `left`, `center` or `right`", "center", (DOCX,)),
        _a("width", "number", "Preferred table width (`w:tblW` in twips)", 432.0, (DOCX,), unit="pt"),
        _a("width_pct", "number", "Preferred table width as a percentage of the text width", 100.0, (DOCX,), unit="percent"),
        _a("indent", "number", "Indent of the table from the left margin (`w:tblInd`)", 0.0, (DOCX,), unit="pt"),
        _a("column_widths", "array", "Widths of the grid columns (`w:gridCol`)", [144.0, 144.0], (DOCX,), unit="pt"),
        _a("box_from", "string", "What the rendered table's, rows' and cells' boxes are: `borders` (the drawn cell borders enclose every cell), `borders_on_some_pages`, `paint` (the table and its rows framed by the rules and fills drawn across it, cells by their text: a style without side borders) or `text` (the union of their text: a borderless table)", "borders", (DOCX,)),
        _a("table_look", "object", "Which conditional parts of the table style are on (`w:tblLook`): `{first_row, last_row, first_column, last_column, banded_rows, banded_columns}`", {"first_row": True, "last_row": False, "first_column": True, "last_column": False, "banded_rows": True, "banded_columns": False}, (DOCX,)),
        _shared("section", (DOCX,)),
        _shared("name", (PPTX, XLSX)),
        _shared("shape_id", (PPTX,)),
        _shared("object_id", (GSLIDES,)),
        _shared("z", (PPTX,)),
        _shared("placeholder_type", (PPTX,)),
        _shared("placeholder_idx", (PPTX,)),
        *(_shared(n, (DOCX,)) for n in ("sdt", "sdt_tag", "sdt_alias", "sdt_type")),
        *_RENDER_STATE_DOCS,
        _a("pivot", "boolean", "A pivot table (its shown cells are the sheet's cells inside `location`)", True, (XLSX,)),
        _a("location", "string", "A1 range the pivot table occupies on its sheet", "B5:E18", (XLSX,)),
        _a("source", "string", "The pivot's source as written: a range (`Data!A1:D13`), a table or a defined name", "BigCity", (XLSX,)),
        _a("source_range", "string", "The pivot's source range once a table or defined name is resolved", "Table!C2:F15", (XLSX,)),
        _a("row_fields", "array", "Pivot fields on rows, in order (`Values` is the data fields' pseudo field)", ["City"], (XLSX,)),
        _a("column_fields", "array", "Pivot fields on columns, in order", ["Values"], (XLSX,)),
        _a("filter_fields", "array", "Pivot fields used as report filters", ["Region"], (XLSX,)),
        _a("data_fields", "array", "Summarised values: `[{name, field, function}]` (function sum, count, average...)", [{"name": "Sum of Sales", "field": "Sales", "function": "sum"}], (XLSX,)),
    ),
    "row": (
        _a("row", "integer", "Row number: 1-based sheet row (sheets), 0-based table row (slides)", 1, SHEETS + SLIDES),
        _a("index", "integer", "0-based row index in its table (documents)", 0, DOCS + (EPUB,)),
        _a("header", "boolean", "A header row repeated at the top of each page (`w:tblHeader`)", True, (DOCX,)),
        _a("height_pt", "number", "Row height (documents: as `w:trHeight` states it, see `height_rule`; slide tables: as drawn, set when the render sized the rows)", 15.75, SHEETS + (DOCX,) + SLIDES, unit="pt"),
        _a("autofit", "boolean", "The file states no height for the row and Excel auto-fits it to its tallest cell (wrapped text, large font): `height_pt` is that computed height", True, (XLSX,)),
        _a("height_rule", "string", "How `height_pt` applies to a document table row: `at_least`, `exact` or `auto`", "exact", (DOCX,)),
        _a("cant_split", "boolean", "The row may not break across pages", True, (DOCX,)),
        _a("tracked", "string", "Tracked change of the whole row: `insert` or `delete`", "delete", (DOCX,)),
        _shared("hidden", SHEETS),
        *_RENDER_STATE_DOCS,
    ),
    "cell": (
        _a("csv_text", "string", "The CSV field as written, when the cell shows other text (`00501` shown as 501, `TRUE` typed from `true`)", "00501", (CSV,)),
        _a("row", "integer", "Row: 1-based in sheets (A1 is row 1), 0-based in document and slide tables", 1, ALL_SOURCES + (EPUB,)),
        _a("col", "integer", "Column: 1-based in sheets (A is 1), 0-based in document and slide tables", 1, ALL_SOURCES + (EPUB,)),
        _a("row_span", "integer", "Rows the cell spans (merged vertically)", 1, DOCS + SLIDES + (GSHEET, EPUB)),
        _a("col_span", "integer", "Columns the cell spans (merged horizontally)", 1, DOCS + SLIDES + (GSHEET, EPUB)),
        _a("width", "number", "Preferred cell width (`w:tcW`)", 72.0, (DOCX,), unit="pt"),
        _a("width_pct", "number", "Preferred cell width as a percentage of the table width", 25.0, (DOCX,), unit="percent"),
        _a("table_style_parts", "array", "The conditional parts of the table style that reach the cell and define something, lowest priority first (`band1Horz`, `firstCol`, `firstRow`, `nwCell`...)", ["firstCol", "firstRow", "nwCell"], (DOCX,)),
        _a("merged_into", "string", "Id of the merged cell that covers this one", "s2/sh1/tr0/tc0", (PPTX,)),
        _a("ref", "string", "A1 address on its sheet", "B3", SHEETS),
        _a("value", "string|integer|number|boolean|null", "The cell's value: number, text, boolean, or null (a date is its serial in `serial` and its ISO text here)", 1234.5, SHEETS),
        _a("data_type", "string", "`number`, `string`, `bool`, `date`, `error`, `image` or `empty`", "number", SHEETS),
        _a("serial", "number", "The date/time serial number behind a date value", 45306, SHEETS),
        _a("formula", "string", "The formula, with its leading `=`", "=SUM(B2:C2)", SHEETS),
        _a("cached_value_missing", "boolean", "A formula without a saved value (files written by openpyxl are never calculated); its value then comes from a LibreOffice recalculation (`value_source: recalculated`) or is `value_unknown`", True, (XLSX,)),
        _a("value_source", "string", "Where a formula cell's value comes from: `cached` (saved in the file; Google Sheets always returns computed values) or `recalculated` (computed by a headless LibreOffice because the .xlsx had none)", "recalculated", SHEETS),
        _a("value_unknown", "boolean", "A formula whose value nobody could compute (no recalculation, or a function LibreOffice lacks): value checks on it report `error`, not `fail`", True, (XLSX,)),
        _a("value_unknown_reason", "string", "Why `value_unknown`", "LibreOffice does not know a function of this formula (#NAME?)", (XLSX,)),
        _a("entered_value", "string", "What was typed when it differs from the value shown (Google)", "1/2/2024", (GSHEET,)),
        _a("number_format", "string", "Number format code (`General`, `0.00%`, `[Red]-#,##0`, `yyyy-mm-dd`)", "0.00%", SHEETS),
        _a("number_format_supported", "boolean", "False when the format code could not be applied, so the shown text may differ from Excel's", False, (XLSX,)),
        _a("value_metadata", "string", "Index of the cell's rich value metadata (e.g. a picture placed in the cell)", "1", (XLSX,)),
        _a("image", "string", "sha256 of a picture placed in the cell (in `Document.blobs`)", "b7dc6985...", (XLSX,)),
        _a("image_url", "string", "URL of an `=IMAGE(...)` picture", "https://example.org/logo.png", (GSHEET,)),
        _a("merge", "string", "The merged range this cell starts", "A1:E1", SHEETS),
        _a("borders", "object", "Borders per side: `{left|right|top|bottom|diagonal: {style, color, color_theme?, color_theme_mods?}}` (the theme keys when the colour is a theme colour)", {"bottom": {"style": "thin", "color": "#000000"}}, SHEETS),
        _shared("hyperlink", SHEETS),
        _a("hyperlink_tooltip", "string", "Tooltip of the cell's hyperlink", "Open the report", (XLSX,)),
        _a("comment", "string", "Text of the note/comment on the cell (also a `comment` child node)", "Check me", SHEETS),
        _a("checkbox", "boolean", "The cell is shown as a checkbox", True, SHEETS),
        _a("checked", "boolean|null", "State of a checkbox cell", True, SHEETS),
        _a("validation", "integer", "0-based index of the cell's rule in the sheet's `data_validations`", 0, (XLSX,)),
        _a("validation_type", "string", "Data validation type: `list`, `whole`, `decimal`, `date`, `textLength`, `custom`...", "list", SHEETS),
        _a("validation_values", "array", "Allowed values of a list validation", ["urgent", "normal", "low"], SHEETS),
        _a("conditional_rules", "array", "0-based indexes into the sheet's `conditional_formats` of the rules that apply to the cell", [0], (XLSX,)),
        _a("conditional_style", "object", "Style the applying conditional rules give the cell (`fill`, `color`, `bold`...)", {"fill": "#ffc7ce"}, (XLSX,)),
        _a("conditional_fill", "string", "Fill colour from conditional formatting (also in `conditional_style`)", "#ffc7ce", (XLSX,)),
        _a("data_bar", "object", "The data bar a conditional format draws: `{ratio}` (0..1 between the rule's low and high thresholds), `length_pct` (bar length, % of the cell width), `color`, `rule` (index), `show_value` false when the number is hidden", {"ratio": 0.5, "length_pct": 50.0, "color": "#638ec6", "rule": 0}, (XLSX,)),
        _a("icon", "object", "The icon an icon-set rule shows: `{icon_set, index, icon, rule}` (index 0 = the icon for the lowest values, e.g. `red circle`)", {"icon_set": "3TrafficLights1", "index": 2, "icon": "green circle", "rule": 0}, (XLSX,)),
        _a("style_sources", "object", "Properties of the displayed `style` that come from another layer than the cell's own format: `{fill|color|bold|italic|underline|strike: table_style|conditional_format|number_format}`; in a slide table `{fill: transparency}` (a see-through fill, such as Light Style 1's bands, laid over the slide)", {"fill": "conditional_format", "color": "number_format"}, SHEETS + SLIDES),
        _a("direct_style", "object", "The cell's own values of the properties listed in `style_sources` (what `layer: direct` in colour and format checks reads)", {"fill": None, "color": "#000000"}, SHEETS + SLIDES),
        _shared("fill_alpha", (PPTX, GSLIDES)),
        _a("sparkline", "object", "The sparkline drawn in the cell: `{source, type, color}`", {"source": "Data!A2:E2", "type": "line", "color": "#376092"}, (XLSX,)),
        _a("table", "string", "Name of the Excel table (ListObject) the cell is in", "SalesTable", (XLSX,)),
        _a("table_header", "boolean", "The cell is in its Excel table's header row", True, (XLSX,)),
        _shared("hidden", SHEETS),
        _a("overflow", "string", "How the shown text fits: `fits`, `spills` (into empty neighbours), `clipped` (cut off), `hidden` (row/column hidden) or `unknown`", "fits", SHEETS),
        _a("text_width_pt", "number", "Width the shown text needs on one line", 33.887, SHEETS, unit="pt"),
        _a("visible_width_pt", "number", "Width of the text a reader sees (less than `text_width_pt` when clipped)", 33.887, SHEETS, unit="pt"),
        _a("spill_to_x", "number", "x where spilled text ends (page space)", 207.473, SHEETS, unit="pt"),
        _a("blocked_by", "string", "The neighbouring cell whose content stops the text from spilling", "C8", (XLSX,)),
        _a("lines", "integer", "Lines of wrapped text", 3, SHEETS),
        _a("text_height_pt", "number", "Height the wrapped text needs", 45.0, SHEETS, unit="pt"),
        _a("needs_row_autofit", "boolean", "Wrapped text is taller than the row height the file stores (not marked custom), or its font cannot be measured; Excel keeps a stored height (text cut) until the row is edited. Rows without a stored height are auto-fitted instead (row `autofit`)", True, (XLSX,)),
        _a("clipped_vertically", "boolean", "Wrapped text is cut off at the bottom of the cell", True, (XLSX, GSHEET)),
        _a("shrunk", "boolean", "Shrink-to-fit made the text smaller to fit", True, (XLSX, GSHEET)),
        _a("display_rounded", "boolean", "A General-format number is shown rounded to fit the column", True, (XLSX, GSHEET)),
        _a("rounded_from", "string", "The standard-width General text of a number its column shows shorter (the cell's `text` is what is drawn: `1.23E+09` for `1234567890`)", "1234567890", (XLSX,)),
        _a("text_width_estimated", "boolean", "Text width estimated with a fallback font (the cell's font is not installed)", True, (XLSX,)),
        _a("text_width_estimated_chars", "integer", "Characters whose width had to be estimated (no glyph in the font)", 3, (XLSX,), unit="chars"),
        *_SDT[:1],
        _a("insets_pt", "array", "Text insets of a slide table cell `[left, top, right, bottom]`, when not the defaults (7.2, 3.6, 7.2, 3.6)", [3.6, 1.8, 3.6, 1.8], (PPTX,), unit="pt"),
        *_DRAWN_TEXT,
        _shared("rendered", (DOCX, PPTX)),
        _shared("not_rendered_reason", (DOCX, PPTX)),
    ),
    "image": (
        *(a for a in _SLIDE_SHAPE if a.name not in ("hyperlink", "alt_text")),
        _shared("hyperlink", (DOCX, PPTX, GSLIDES, PDF, EPUB)),
        _shared("alt_text", (DOCX, PPTX, XLSX, GDOC, GSLIDES, EPUB)),
        *_WORD_FLOAT,
        _shared("blob", (DOCX, XLSX, PPTX, GDOC, GSLIDES, PDF, IMAGE, EPUB)),
        _a("cut_off_pt", "object", "How much of each edge the render hides: a picture wider than its table cell, or taller than the page's body, is drawn clipped (its box is the part shown)", {"bottom": 215.9}, (DOCX,), unit="pt"),
        _a("width_px", "integer", "Pixel width of the image as stored", 600, (PDF, IMAGE), unit="px"),
        _a("height_px", "integer", "Pixel height of the image as stored", 300, (PDF, IMAGE), unit="px"),
        _a("mode", "string", "Pillow colour mode of the stored image: `P` palette (indexed), `RGB`, `RGBA`, `L` greyscale, `1` bilevel, `CMYK`", "P", (IMAGE,)),
        _a("image_format", "string", "Codec of the image file (`png`, `jpeg`, `gif`, `bmp`, `tiff`, `webp`)", "png", (IMAGE,)),
        _a("frames", "integer", "Frames in the file (an animated GIF, a multi-page TIFF); the page shows the first", 1, (IMAGE,)),
        _a("pixel_sha256", "string", "sha256 of the decoded RGB pixels (equal for the same picture however it was encoded)", "21304307...", (PDF,)),
        _a("embedded_as", "string", "How the PDF stores the picture: `file` (a whole JPEG/JPEG 2000, the blob is its bytes) or `decoded pixels (PNG)`", "file", (PDF,)),
        _a("decode_error", "string", "Why the picture has no blob: over the pixel budget or undecodable", "12000x12000 px: not decoded (pixel limit) or undecodable", (PDF,)),
        _shared("original_blob", (DOCX, PPTX, GSLIDES)),
        _shared("image_part", (DOCX, PPTX, EPUB)),
        _a("media_part", "string", "Package part holding the picture", "xl/media/image1.png", (XLSX,)),
        _shared("crop", ALL_SOURCES),
        _a("in_cell", "boolean", "A picture placed in a cell (not floating over the grid)", True, SHEETS),
        _a("src", "string", "URL of an `=IMAGE(...)` picture", "https://example.org/logo.png", (GSHEET,)),
        _a("source_url", "string", "URL the picture was inserted from", "https://example.org/logo.png", (GSLIDES,)),
        _a("linked_url", "string", "URL of a linked (not embedded) picture", "https://example.org/logo.png", (DOCX, EPUB)),
        _a("linked_image", "string|null", "Target of a linked (not embedded) picture", "file:///logo.png", (PPTX,)),
        _a("image_link", "string", "Target of a linked (not embedded) picture", "https://example.org/logo.png", (XLSX,)),
        _a("missing_image", "boolean", "The picture's data is missing from the file", True, (DOCX, EPUB)),
        _a("image_missing", "boolean", "The picture's data is missing from the file", True, (PPTX,)),
        _a("ole", "boolean", "The preview picture of an embedded object", True, (DOCX,)),
        _a("ole_prog_id", "string", "Program id of the embedded object (`Excel.Sheet.12`, `Package`, `Equation.3`)", "Package", (DOCX,)),
        _shared("equation", (DOCX,)),
        _shared("equation_format", (DOCX,)),
        _a("drawing", "boolean", "A Google Drawing embedded in the document", True, (GDOC,)),
    ),
    "shape": (
        *_SLIDE_SHAPE,
        *_WORD_FLOAT,
        _shared("geometry", (DOCX,)),
        _a("diagram", "boolean", "A SmartArt diagram in a Word document", True, (DOCX,)),
        _a("wordart", "boolean", "A VML WordArt shape (`v:textpath`): its text is the shape's own text, drawn by LibreOffice as letter outlines with no text layer (so it has no box of its own)", True, (DOCX,)),
        _a("watermark", "boolean", "Word's watermark (Design > Watermark, `PowerPlusWaterMarkObject`): WordArt behind the text of every page its header is on", True, (DOCX,)),
        _a("linked_textbox", "string", "Id of the text box whose overflow continues in this shape", "1", (DOCX,)),
        _shared("graphic", (PPTX, XLSX)),
        *_TEXT_FRAME,
        _a("connector", "boolean", "A connector line", True, (PPTX, XLSX)),
        _a("endpoints", "array", "Start and end points of a line or connector `[[x, y], [x, y]]`", [[72.0, 288.0], [360.0, 360.0]], (PPTX,), unit="pt"),
        _a("start_shape_id", "string", "`shape_id` of the shape the connector starts at", "5", (PPTX,)),
        _a("end_shape_id", "string", "`shape_id` of the shape the connector ends at", "7", (PPTX,)),
        _a("line_type", "string", "Google Slides line type (`straight_line`, `bent_connector_3`...)", "straight_line", (GSLIDES,)),
        _a("line_category", "string", "Google Slides line category: `straight`, `bent` or `curved`", "straight", (GSLIDES,)),
        _a("line_width", "number", "Outline width", 2.0, (GSLIDES,), unit="pt"),
        _a("fill_blob", "string", "sha256 of the picture filling the shape (in `Document.blobs`)", "82524544...", (PPTX,)),
        _shared("blob", (PPTX,)),
        _a("prog_id", "string", "Program id of an embedded OLE object", "Excel.Sheet.12", (PPTX,)),
        _a("ole_target", "string", "Package part holding the embedded object", "ppt/embeddings/oleObject1.bin", (PPTX,)),
    ),
    "chart": (
        _a("chart_type", "string|null", "Main chart type: `column`, `bar`, `line`, `pie`, `area`, `scatter`, `doughnut`...", "column", SHEETS + SLIDES),
        _a("chart_types", "array", "Every plot type in the chart (combo charts have several)", ["column", "line"], (PPTX, XLSX)),
        _a("chart_grouping", "string|null", "Bar/column grouping: `clustered`, `stacked`, `percentStacked`, `standard`", "clustered", (PPTX,)),
        _shared("title", SHEETS + SLIDES),
        _a("title_ref", "string|null", "Cell reference the title is taken from", "Sheet1!$A$1", (XLSX,)),
        _a("auto_title_deleted", "boolean", "The automatic title was removed", False, (XLSX,)),
        _a("legend", "boolean|string|null", "The legend: its position in sheets (`r`, `b`...), true/false in decks", True, (PPTX, XLSX)),
        _a("legend_position", "string|null", "Legend position: `right`, `bottom`, `top`, `left` or `top_right` (`c:legendPos` `tr`, Office's Top Right), the same words in decks and workbooks", "bottom", (PPTX, XLSX)),
        _a("series", "array", "Data series: `{name, name_ref, values_ref, values, categories_ref, categories, chart_type}`", [{"name": "North", "values": [1.5, 2.5]}], (PPTX, XLSX)),
        _a("axes", "array", "Axes: `{kind, title, position, deleted}`", [{"kind": "value", "title": "Units", "position": "left", "deleted": False}], (PPTX, XLSX)),
        _a("series_count", "integer", "Number of data series", 2, (GSHEET, PPTX, XLSX)),
        _a("data_labels", "boolean", "Some plot or series draws data labels (value, category, series name or percent; a part the file leaves out counts as shown, as LibreOffice draws it)", True, (PPTX, XLSX)),
        _a("value_axis_title", "string", "Title of the shown value axis (also in `axes`)", "Revenue ($)", (PPTX, XLSX)),
        _a("category_axis_title", "string", "Title of the shown category axis (a scatter chart's horizontal value axis; also in `axes`)", "Quarter", (PPTX, XLSX)),
        _a("series_ranges", "array", "Source ranges of the series", ["Data!B1:B3"], (GSHEET,)),
        _a("chart_id", "integer", "Google Sheets chart id", 99, (GSHEET, GSLIDES)),
        _a("spreadsheet_id", "string", "Spreadsheet a linked Slides chart comes from", "1SheetFixture", (GSLIDES,)),
        _a("own_sheet", "boolean", "The chart sits on its own sheet", True, (GSHEET,)),
        _a("chart_part", "string", "Package part of the chart", "ppt/charts/chart1.xml", (PPTX, XLSX)),
        _shared("part", (DOCX,)),
        *(a for a in _SLIDE_SHAPE if a.name not in ("inherited_from", "position_from", "size_from")),
        _shared("placement", (DOCX,)),
        _shared("width", (DOCX,)),
        _shared("height", (DOCX,)),
    ),
    "media": (
        _a("media_type", "string", "`video`, `audio` or `speaker_spotlight`", "video", SLIDES),
        _a("media_target", "string", "Package part (or URL) of the media file", "ppt/media/media1.mp4", (PPTX,)),
        _a("url", "string", "URL of the video", "https://www.youtube.com/watch?v=abc", (GSLIDES,)),
        _a("video_source", "string", "Where the video lives: `YOUTUBE` or `DRIVE`", "YOUTUBE", (GSLIDES,)),
        _a("video_id", "string", "The video's id at its source", "abc", (GSLIDES,)),
        _shared("title", (GSLIDES,)),
        _shared("blob", (PPTX,)),
        _shared("original_blob", (PPTX,)),
        _shared("image_part", (PPTX,)),
        *_SLIDE_SHAPE,
    ),
    "setting": (
        _a("path", "string", "Full registry path of the setting: the item's `oor:path`, the set nodes around it, the prop's name", "/org.openoffice.Office.Common/Save/Document/AutoSaveTimeIntervall", (XCU,)),
        _a("value_type", "string", "The value's `oor:type` when stated (`xs:int`, `xs:boolean`, `xs:string`, `oor:string-list`...)", "xs:int", (XCU,)),
        _a("op", "string", "How the entry changes the default: `fuse`, `replace` or `remove`", "fuse", (XCU,)),
        _a("items", "array", "A list value's items (`<it>`); `text` joins them with spaces", ["en-US", "de-DE"], (XCU,)),
        _a("nil", "boolean", "The value is `xsi:nil` (set to nothing)", True, (XCU,)),
    ),
    PAGES: (
        _a("rotation", "integer", "The PDF page's `/Rotate` (0, 90, 180, 270); boxes stay in the unrotated page space", 0, (PDF,), unit="degrees"),
        _a("csv", "object", "How a CSV/TSV file was read: `{encoding, encoding_source (bom, utf-8, detected), delimiter (null: one column), quotechar, rows, day_first}`", {"encoding": "utf-8", "encoding_source": "utf-8", "delimiter": ",", "quotechar": '"', "rows": 12, "day_first": False}, (CSV,)),
        _a("width_px", "integer", "Pixel width of an image file's page", 800, (IMAGE,), unit="px"),
        _a("height_px", "integer", "Pixel height of an image file's page", 500, (IMAGE,), unit="px"),
        _a("dpi", "array", "Resolution `[x, y]` that turned the image's pixels into page points", [96.0, 96.0], (IMAGE,), unit="dpi"),
        _a("dpi_source", "string", "`file` (the resolution the image states) or `default` (96 dpi: 1 px = 0.75 pt)", "default", (IMAGE,)),
        _a("links", "array", "Every link annotation: `{url, kind (uri, goto, launch...), target_page (0-based), box [x0, top, x1, bottom]}`", [{"url": "https://example.org", "kind": "uri", "target_page": None, "box": [90.0, 200.0, 160.0, 212.0]}], (PDF,)),
        _a("layout", "string|null", "Name of the slide's layout", "Title and Content", (PPTX,)),
        _a("part", "string", "Package part of the slide", "ppt/slides/slide1.xml", (PPTX,)),
        _a("section", "integer|string", "Word section index of the page (documents) or deck section name (slides)", 0, (DOCX, PPTX)),
        _a("page_number", "string", "The page number a PAGE field prints on this page: counted from the sections' restarts (`page_number_start`) in their formats, as LibreOffice prints it (`ii` in Roman front matter, `1` where the body restarts)", "ii", (DOCX,)),
    ),
}
"""Kind (or ``pages``) -> its attributes. Kinds absent here carry no attributes."""

KIND_NOTES: dict[str, str] = {
    PAGES: "Not a node kind: the attributes of `Document.pages[i]` (a printed page, a slide, a sheet canvas). "
    "Pages are read by checks (`page=...` parameters), not by selectors.",
    "cell": "Sheet cells (id `Sheet1!B3`) and table cells in documents and slides (id `t0/r1/c2`). "
    "Sheet cells count rows and columns from 1; table cells from 0.",
    "textbox": "A shape whose purpose is text (a .pptx `txBox`, a Word text box, a Google Slides TEXT_BOX).",
    "media": "Video or audio on a slide; the poster frame is its image.",
    "setting": "One value of LibreOffice's user settings (`registrymodifications.xcu`), id its registry path; `text` is the value.",
}
"""One line about a kind, shown above its attribute table."""


def attributes_of(kind: str) -> dict[str, Attribute]:
    """The declared attributes of a kind (or of ``pages``), by name."""
    return {a.name: a for a in ATTRIBUTES.get(kind, ())}
