"""An Agg renderer that keeps the texts it laid out and the glyphs it rasterized: a batch draws the same tick
labels, legend entries and titles for every report, and matplotlib 3.11 shapes each text (HarfBuzz) and has
FreeType rasterize each of its glyphs on every draw (half of a report's drawing time was text).

A glyph's bitmap depends on its font, size, resolution, rotation and the fraction of a pixel it starts at (the
renderer places glyphs to 1/64 px); moving it by whole pixels moves its bitmap by as many, coverage unchanged.
So a glyph is rasterized once per (font, size, dpi, glyph, transform, position within its pixel, rendering
mode, hinting) and blitted where it goes, with the bitmap FreeType gave. A text's layout (its glyphs and their
places, which FT2Font._layout shapes) is kept by font, size, resolution, text, hinting, features and language. The
pixels are the same (tests/test_report_image.py draws reports both ways).

Only where matplotlib draws text glyph by glyph through `RendererAgg._draw_text_glyphs_and_boxes` (3.11 and
later, with FT2Font's `_render_glyph` and `_set_transform`); elsewhere the renderer is matplotlib's own."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import RendererAgg, get_hinting_flag

try:
    from matplotlib.ft2font import FT2Font, RenderMode
except ImportError:  # (matplotlib before 3.11: no glyph by glyph drawing to keep)
    FT2Font = RenderMode = None  # type: ignore[assignment,misc]

GLYPHS_KEPT = 20_000  # bitmaps a renderer class keeps (a report draws ~1,500 glyphs of a few hundred kinds)

CACHING = (
    RenderMode is not None
    and hasattr(RendererAgg, "_draw_text_glyphs_and_boxes")
    and hasattr(FT2Font, "_render_glyph")
    and hasattr(FT2Font, "_set_transform")
    and hasattr(FT2Font, "_layout")
)
LAYOUTS_KEPT = 5_000  # texts whose glyphs' places a renderer class keeps


class GlyphRenderer(RendererAgg):
    """RendererAgg, its glyphs' bitmaps kept between draws and reports (GLYPHS_KEPT, shared by every such
    renderer in the process)."""

    _kept: dict[tuple[Any, ...], tuple[np.ndarray, int, int]] = {}
    _layouts: dict[tuple[Any, ...], tuple[tuple[Any, int, float, float], ...]] = {}

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):  # noqa: ANN001, ANN201
        # RendererAgg's (matplotlib 3.11), the text's layout (its glyphs and their places: HarfBuzz's shaping,
        # ~0.7 ms a text) kept by font, size, resolution, text, hinting, features and language
        if ismath:
            return super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
        font = self._prepare_font(prop)
        features = mtext.get_fontfeatures() if hasattr(mtext, "get_fontfeatures") else None
        language = mtext.get_language() if hasattr(mtext, "get_language") else None
        size = prop.get_size_in_points()
        flags = get_hinting_flag()
        key = (font, size, self.dpi, s, flags, None if features is None else tuple(features), language)
        items = self._layouts.get(key)
        if items is None:
            laid = font._layout(s, flags=flags, features=features, language=language)
            items = tuple((item.ft_object, item.glyph_index, item.x, item.y) for item in laid)
            if len(self._layouts) >= LAYOUTS_KEPT:
                self._layouts.clear()
            self._layouts[key] = items
        self._draw_text_glyphs_and_boxes(
            gc, x, y, angle, ((ft, size, glyph, 0, 1, gx, gy) for ft, glyph, gx, gy in items), []
        )
        return None

    def _draw_text_glyphs_and_boxes(self, gc, x, y, angle, glyphs, boxes):  # noqa: ANN001, ANN202
        # RendererAgg's (matplotlib 3.11), the bitmap looked up before FreeType is asked for it
        cos = math.cos(math.radians(angle))
        sin = math.sin(math.radians(angle))
        load_flags = get_hinting_flag()
        antialiased = gc.get_antialiased()
        kept = self._kept
        height = self.height
        for font, size, glyph_index, slant, extend, dx, dy in glyphs:  # dy is upwards.
            at_x = round(0x40 * (x + dx * cos - dy * sin))
            at_y = round(0x40 * (height - y + dx * sin + dy * cos))  # (FreeType's y is upwards)
            key = (
                font,
                size,
                self.dpi,
                glyph_index,
                slant,
                extend,
                angle,
                at_x & 63,
                at_y & 63,
                antialiased,
                load_flags,
            )
            got = kept.get(key)
            if got is None:
                font.set_size(size, self.dpi)
                font._set_transform(
                    (0x10000 * np.array([[cos, -sin], [sin, cos]]) @ [[extend, extend * slant], [0, 1]])
                    .round()
                    .astype(int),
                    [at_x, at_y],
                )
                bitmap = font._render_glyph(
                    glyph_index, load_flags, RenderMode.NORMAL if antialiased else RenderMode.MONO
                )
                buffer = np.array(bitmap.buffer)  # (a copy: FreeType's buffer is the next glyph's)
                if not antialiased:
                    buffer *= 0xFF
                if len(kept) >= GLYPHS_KEPT:
                    kept.clear()
                got = kept[key] = (buffer, bitmap.left - (at_x >> 6), bitmap.top - (at_y >> 6))
            buffer, left, top = got
            # draw_text_image's y is downwards & the bitmap bottom side.
            self._renderer.draw_text_image(
                buffer, (at_x >> 6) + left, int(height) - ((at_y >> 6) + top) + buffer.shape[0], 0, gc
            )
        if boxes:
            super()._draw_text_glyphs_and_boxes(gc, x, y, angle, (), boxes)


def new_renderer(width: int, height: int, dpi: float) -> RendererAgg:
    """A renderer for a report's canvas: a GlyphRenderer where matplotlib draws text glyph by glyph."""
    return (GlyphRenderer if CACHING else RendererAgg)(width, height, dpi)
