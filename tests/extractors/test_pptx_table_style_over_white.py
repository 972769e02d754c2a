"""The modifier chain that states a semi-transparent band of a built-in table style as
drawn over the white slide (Light Style 1/3, Themed Style 1/2): the tree's resolver must
give ``alpha·c + (1 − alpha)`` per sRGB channel, as the PDF composites it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

from artifactcheck.extractors.drawingml.color import A_NS, hex_to_rgb, resolve_color
from artifactcheck.extractors.pptx.table_style import _over_white


@given(rgb=st.tuples(*[st.integers(0, 255)] * 3), alpha=st.integers(0, 100))
def test_over_white_is_the_srgb_composite(rgb: tuple[int, int, int], alpha: int) -> None:
    val = alpha * 1000
    hex_in = "".join(f"{c:02x}" for c in rgb)
    el = etree.fromstring(f'<a:srgbClr xmlns:a="{A_NS}" val="{hex_in}">{_over_white(val)}</a:srgbClr>')
    got = resolve_color(el, None)
    back = hex_to_rgb(got)
    assert back is not None
    expected = [c / 255 * alpha / 100 + (1 - alpha / 100) for c in rgb]
    assert all(abs(g - e) <= 1 / 255 + 1e-9 for g, e in zip(back, expected)), (got, expected)
