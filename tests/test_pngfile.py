"""The PNG files logparse encodes itself (report/pngfile.py): decoded by Pillow, they hold the pixels and the
resolution matplotlib's own savefig writes."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

import logparse
from logparse.report import plots
from logparse.report.pngfile import encode, save_figure

from .conftest import SAMPLES


def test_an_image_encoded_here_decodes_to_its_pixels_resolution_and_software():
    rng = np.random.default_rng(3)
    rgba = rng.integers(0, 256, size=(37, 53, 4), dtype=np.uint8)
    rgba[5:20, :, :] = 255  # a flat band, as most of a report is
    with Image.open(io.BytesIO(encode(rgba, 110.0, "Matplotlib version0, https://matplotlib.org/", 1))) as im:
        assert im.mode == "RGBA" and im.size == (53, 37)
        assert np.array_equal(np.asarray(im), rgba)
        # pHYs holds pixels per metre: 110 dpi -> round(110 / 0.0254) = 4331 -> 4331 * 0.0254 = 110.0074 dpi
        assert im.info["dpi"] == pytest.approx((110.0074, 110.0074))
        assert im.info["Software"] == "Matplotlib version0, https://matplotlib.org/"


def test_only_rgba_bytes_are_encoded():
    with pytest.raises(ValueError, match="RGBA"):
        encode(np.zeros((4, 4, 3), dtype=np.uint8), 100, "x", 1)
    with pytest.raises(ValueError, match="RGBA"):
        encode(np.zeros((4, 4, 4), dtype=np.float32), 100, "x", 1)


def test_a_report_has_the_pixels_and_metadata_of_matplotlibs_own_png(tmp_path):
    analysis = logparse.analyze(SAMPLES / "megatron_llama2-7b_8xh100.log", gpus=8, hw="h100")
    fig = plots.build_report(analysis, dpi=40)
    fig.savefig(tmp_path / "theirs.png", dpi=40)  # matplotlib -> Pillow
    save_figure(fig, tmp_path / "ours.png", 40)
    with Image.open(tmp_path / "theirs.png") as theirs, Image.open(tmp_path / "ours.png") as ours:
        assert ours.mode == theirs.mode == "RGBA" and ours.size == theirs.size
        assert np.array_equal(np.asarray(ours), np.asarray(theirs))
        assert ours.info == theirs.info  # the Software text and the resolution
    # the canvas keeps what was drawn, for the thumbnail
    assert np.array_equal(np.asarray(fig.canvas.buffer_rgba()), np.asarray(Image.open(tmp_path / "ours.png")))


def test_a_figure_saved_at_another_dpi_than_its_own_is_encoded_at_the_dpi_saved(tmp_path):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(3, 2), dpi=100)  # (compare's plot: a pyplot figure of 100 dpi saved at 110)
    fig.add_subplot().plot([0, 1, 3], [1, 0, 2])
    fig.savefig(tmp_path / "theirs.png", dpi=110)
    save_figure(fig, tmp_path / "ours.png", 110)
    with Image.open(tmp_path / "theirs.png") as theirs, Image.open(tmp_path / "ours.png") as ours:
        assert ours.size == theirs.size == (330, 220)
        assert np.array_equal(np.asarray(ours), np.asarray(theirs))
        assert ours.info == theirs.info


def test_another_format_is_written_by_matplotlib(tmp_path):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(2, 1))
    fig.add_subplot().plot([0, 1], [1, 0])
    save_figure(fig, tmp_path / "plot.svg", 72)
    assert b"<svg" in (tmp_path / "plot.svg").read_bytes()[:500]
