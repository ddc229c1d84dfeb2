"""The report's thumbnail for the batch page: a small palette PNG beside report.png.

A batch draws it where it draws the report, from the pixels already on the canvas (plots.plot_report), so
the page's process neither decodes 200 reports nor resizes them one after another (60 ms a run,
12 s of a 200-run batch, spent serially after the runs). A report without one (drawn by an older version)
gets it when the page is written (batch.page.write_thumbnail)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

THUMB_NAME = "thumb.png"
THUMB_WIDTH = 320  # px: the page shows it at half that, sharp on a 2x screen


def save_thumbnail(image: Any, path: str | Path) -> None:
    """Write `image` (a PIL image of the report) as its thumbnail: THUMB_WIDTH px wide, 96 colours (~4x
    smaller than full colour). Not `optimize`d: that took 6 of a thumbnail's 23 ms for a file 3% smaller."""
    from PIL import Image

    small = image.convert("RGB")
    small.thumbnail((THUMB_WIDTH, THUMB_WIDTH * 10), Image.LANCZOS)
    small.quantize(colors=96).save(path, format="PNG")


def canvas_image(fig: Any) -> Any:
    """The PIL image of a drawn figure's Agg canvas (its buffer, as savefig left it)."""
    import numpy as np
    from PIL import Image

    return Image.fromarray(np.asarray(fig.canvas.buffer_rgba()))
