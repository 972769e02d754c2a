"""Deck-level facts a slide or the document node carries: the slide's orientation and its
transition (``p:transition``). Google Slides uses :func:`orientation` too, so both
sources name it the same way."""

from __future__ import annotations

from typing import Any

from lxml import etree

_P14 = "http://schemas.microsoft.com/office/powerpoint/2010/main"
_SPEEDS = {"slow": "slow", "med": "medium", "fast": "fast"}


def orientation(width: float, height: float) -> str:
    """``landscape`` (wider than tall), ``portrait`` or ``square``."""
    if abs(width - height) < 1e-6:
        return "square"
    return "landscape" if width > height else "portrait"


def _transition_element(slide: etree._Element) -> etree._Element | None:
    """The slide's ``p:transition``: direct, or inside ``mc:AlternateContent`` (the
    PowerPoint 2010 Choice, which names the newer effects, before the Fallback)."""
    found: list[etree._Element] = []
    for el in slide:
        if not isinstance(el.tag, str):
            continue
        name = etree.QName(el).localname
        if name == "transition":
            return el
        if name == "AlternateContent":
            for branch in el:
                if isinstance(branch.tag, str):
                    found.extend(c for c in branch if isinstance(c.tag, str) and etree.QName(c).localname == "transition")
    return found[0] if found else None


def slide_transition(slide: etree._Element) -> dict[str, Any]:
    """Attributes of the slide's transition (empty without one):

    - ``transition``: the effect (``fade``, ``push``, ``wipe``, ``vortex`` ... the
      element's local name), ``none`` when the element names no effect;
    - ``transition_speed``: ``slow`` / ``medium`` / ``fast`` (``spd``; PowerPoint's
      default is fast), ``transition_duration_ms`` (``p14:dur``) when stated;
    - ``advance_on_click`` (``advClick``, default true) and ``advance_after_ms``
      (``advTm``) when the slide advances by itself.
    """
    el = _transition_element(slide)
    if el is None:
        return {}
    effect = next((etree.QName(c).localname for c in el if isinstance(c.tag, str) and etree.QName(c).localname not in ("sndAc", "extLst")), "none")
    out: dict[str, Any] = {"transition": effect, "transition_speed": _SPEEDS.get(el.get("spd") or "fast", "fast")}
    dur = el.get(f"{{{_P14}}}dur")
    if dur is not None and dur.isdigit():
        out["transition_duration_ms"] = int(dur)
    out["advance_on_click"] = el.get("advClick") not in ("0", "false")
    adv = el.get("advTm")
    if adv is not None and adv.isdigit():
        out["advance_after_ms"] = int(adv)
    return out
