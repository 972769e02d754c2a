"""A Google Slides fill with ``alpha`` (what ``updateShapeProperties`` with
``shapeBackgroundFill.solidFill.alpha`` writes) is drawn laid over what is behind it, as
in a .pptx (tests/extractors/test_pptx_see_through_fills.py reads those off the render)."""

from __future__ import annotations

from typing import Any

from artifactcheck import run_check
from artifactcheck.extractors.google.slides import extract_gslides

EMU_INCH = 914400


def _rect(object_id: str, rgb: dict[str, float], alpha: float | None, x_in: float) -> dict[str, Any]:
    solid: dict[str, Any] = {"color": {"rgbColor": rgb}}
    if alpha is not None:
        solid["alpha"] = alpha
    return {
        "objectId": object_id,
        "size": {"width": {"magnitude": 2 * EMU_INCH, "unit": "EMU"}, "height": {"magnitude": EMU_INCH, "unit": "EMU"}},
        "transform": {"scaleX": 1, "scaleY": 1, "translateX": x_in * EMU_INCH, "translateY": EMU_INCH, "unit": "EMU"},
        "shape": {"shapeType": "RECTANGLE", "shapeProperties": {"shapeBackgroundFill": {"propertyState": "RENDERED", "solidFill": solid}}},
    }


def _deck() -> dict[str, Any]:
    navy = {"red": 0.12156863, "green": 0.21960784, "blue": 0.39215687}
    return {
        "presentationId": "deck1",
        "pageSize": {"width": {"magnitude": 9144000, "unit": "EMU"}, "height": {"magnitude": 5143500, "unit": "EMU"}},
        "slides": [
            {
                "objectId": "p1",
                "pageProperties": {"pageBackgroundFill": {"propertyState": "RENDERED", "solidFill": {"color": {"rgbColor": navy}, "alpha": 1}}},
                "pageElements": [
                    _rect("overlay", {"red": 1.0}, 0.5, 0.5),
                    _rect("solid", {"red": 1.0}, None, 4.0),
                ],
            }
        ],
        "layouts": [],
        "masters": [],
    }


def test_alpha_fill_is_laid_over_the_slide_background() -> None:
    doc = extract_gslides(_deck())
    overlay, solid = (next(n for n in doc.root.descendants("shape") if n.attrs.get("object_id") == i) for i in ("overlay", "solid"))
    assert overlay.attrs["fill_alpha"] == 0.5 and "fill_alpha" not in solid.attrs
    assert overlay.style is not None and overlay.style.fill == "#8f1c32"  # 50% #ff0000 over #1f3864
    assert overlay.attrs["direct_style"]["fill"] == "#ff0000"
    red = {"target": {"selector": "shape", "nth": 0}, "property": "fill", "expected": "#ff0000"}
    assert run_check("color_is", doc, red).status == "fail"
    assert run_check("color_is", doc, {**red, "layer": "direct"}).status == "pass"
    assert solid.style is not None and solid.style.fill == "#ff0000"
