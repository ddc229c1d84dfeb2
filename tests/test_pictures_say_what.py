"""The pictures: report.png, leaderboard.png and index.html say what they show. The figures are
read from their artists (as tests/test_report_image.py does); the truth is the log's own lines, read by hand
and written here, or the option the test passes."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import matplotlib.image
import pandas as pd
import pytest
from click.testing import CliRunner
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.text import Text

import logparse
from logparse.batch.page import write_leaderboard
from logparse.cli import cli
from logparse.report import plots

from .conftest import SAMPLES, batch_with_a_broken_run

DPI = 50


def drawn(name: str, **opts):
    a = logparse.analyze(SAMPLES / name, **opts)
    fig = plots.build_report(a, dpi=DPI)
    fig.canvas.draw()
    return a, fig


def panel(fig, kind: str):
    return next(ax for ax in fig.axes if ax.get_gid() == f"panel:{kind}")


def legend_texts(fig) -> list[str]:
    (leg,) = fig.legends
    return [t.get_text() for t in leg.get_texts()]


def gid(ax, name: str) -> list:
    return [a for a in ax.get_children() if a.get_gid() == name]


def x_span(patch) -> tuple[float, float]:
    """The steps a band (axvspan) covers."""
    xy = patch.get_transform().transform(patch.get_path().vertices)
    data = patch.axes.transData.inverted().transform(xy)
    return float(data[:, 0].min()), float(data[:, 0].max())


# ------------------------------------------------------------------------------------------------
# report.png


def test_the_asked_window_is_a_labelled_band_over_its_steps():
    _, fig = drawn("megatron_llama2-7b_8xh100.log", hw="h100", window="35:44")
    for kind in ("mfu", "tps", "time", "loss"):
        (band,) = gid(panel(fig, kind), "window")
        lo, hi = x_span(band)
        assert lo == pytest.approx(34.5) and hi == pytest.approx(44.5)  # steps 35..44, as asked
    assert "window asked for: steps 35..44 (--window 35:44)" in legend_texts(fig)


def test_torchtitans_unlogged_steps_before_the_stable_window_are_said():
    # the log prints steps 1, 10, 20, 30, ... (lines 6-9 of the sample, read by hand): nothing for 21..29,
    # and its line at step 30 covers them; warmup ends at 20, the stable window's first line is step 30
    a, fig = drawn("torchtitan_llama3-8b_8xh100.log", hw="h100", gpus=8)
    assert a.summary["warmup_steps"] == 20 and a.summary["stable"]["start_step"] == 30
    (band,) = gid(panel(fig, "mfu"), "stable-band")
    assert x_span(band)[0] == pytest.approx(20.5)  # the band meets the warmup's, nothing unexplained between
    (note,) = gid(panel(fig, "mfu"), "unlogged-steps")
    assert note.get_text() == "steps 21-29: no line; the line at step 30 covers them"


def test_nanogpts_mfu_panel_draws_the_mfu_the_log_prints():
    # no GPU count, so logparse has no MFU of its own; the log prints one on every step:
    # line 108 `iter 100: loss 7.4404, time 395.30ms, mfu 41.91%`, line 259 `iter 250: ... mfu 41.99%`
    a, fig = drawn("nanogpt_gpt2_8xa100.log", hw="a100")
    assert a.summary["stable"]["mfu_mean"] is None
    ax = panel(fig, "mfu")
    (line,) = gid(ax, "reported-mfu")
    x, y = line.get_xdata(), line.get_ydata()
    assert y[x == 100][0] == pytest.approx(41.91) and y[x == 250][0] == pytest.approx(41.99)
    assert ax.get_ylabel() == "MFU (%) as\nnanoGPT prints it"
    (why,) = gid(ax, "own-mfu-unknown")
    assert why.get_text().startswith("logparse's own MFU: GPUs unknown")
    assert ax.get_ylim()[1] > 42  # the curve is inside the axis


def test_the_tokens_axis_reads_millions_as_m():
    # nanoGPT's cluster tokens/s: 491,520 tokens per iter in ~0.4 s, about 1.2 million per second
    _, fig = drawn("nanogpt_gpt2_8xa100.log", hw="a100")
    ticks = [t.get_text() for t in panel(fig, "tps").get_yticklabels() if t.get_text()]
    assert "1M" in ticks and not any(re.fullmatch(r"\d{4,}k", t) for t in ticks), ticks


def test_composers_two_run_log_says_it_shows_run_2_of_2():
    # the counter restarts at line 404 with a new total ([batch=1/20] ... then [batch=1/5]): two runs, the
    # analysis covers the last
    _, fig = drawn("composer_two_runs_cpu.log")
    title = fig.texts[0].get_text()
    assert title.endswith("run 2 of 2"), title
    _, one = drawn("megatron_llama2-7b_8xh100.log", hw="h100")
    assert " of " not in one.texts[0].get_text().split("|")[-1]


def test_the_restart_names_the_nccl_error_before_it_as_its_cause(tmp_path):
    # line 401 of the log: `[E ProcessGroupNCCL.cpp:475] [Rank 3] Watchdog caught collective operation
    # timeout`, after step 340's line and before the resumed attempt (line 458)
    res = CliRunner().invoke(
        cli,
        [
            "analyze",
            str(SAMPLES / "megatron_resumed_8xh100.log"),
            "--hw",
            "h100",
            "--out",
            str(tmp_path / "o"),
        ],
    )
    assert res.exit_code == 0, res.output
    (r,) = json.loads((tmp_path / "o" / "summary.json").read_text())["restarts"]
    assert r["at_step"] == 340 and r["cause_line"] == 401
    assert r["cause"] == "[E ProcessGroupNCCL.cpp:475] [Rank 3] Watchdog caught collective operation timeout"
    (line,) = [s for s in res.output.splitlines() if "restart after step 340" in s]
    assert "cause: line 401: [E ProcessGroupNCCL.cpp:475]" in line
    # a restart without an error line before it has no cause
    (r0,) = logparse.analyze(SAMPLES / "megatron_resumed_8xh100.log").summary["restarts"]
    assert set(r0) >= {"cause", "cause_line"}


# ------------------------------------------------------------------------------------------------
# leaderboard.png


LONG_ERROR = (
    "no pattern set recognises this log; tried megatron, deepspeed, hf_trainer, lightning, nemo, torchtitan, "
    "nanogpt, composer, colossalai, maxtext, olmo, nanotron, litgpt and 30 more; run `logparse patterns "
    "explain FILE` to see its line shapes, then write a set for them (docs/writing-a-pattern-set.md) and "
    "pass it with --patterns"
)


def test_leaderboard_reasons_are_wrapped_not_cut_and_identical_ones_grouped(tmp_path, saved):
    # 27 runs with the same gap (the index knows their GPUs, seq len, formula and throughput, no hardware)
    # and one failure with a long message
    rows = [
        {"run": f"run{i:02d}", "status": "ok", "gpus": 8, "seq_len": 4096, "formula": "palm",
         "stable_start": 20, "tokens_per_s_per_gpu": 9000.0, "tokens_per_s": 72000.0}
        for i in range(27)
    ]  # fmt: skip
    rows.append({"run": "jobx_slurm-1234", "status": "error", "error": LONG_ERROR})
    write_leaderboard(tmp_path, pd.DataFrame(rows))
    (fig,) = saved
    FigureCanvasAgg(fig)  # pyplot's close left it a bare canvas
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    texts = [t for t in fig.findobj(Text) if t.get_text()]
    strings = [t.get_text() for t in texts]
    assert not any("\u2026" in s for s in strings)  # nothing cut with an ellipsis (the names are short)
    for t in texts:  # every line inside the figure
        box = t.get_window_extent(renderer)
        assert box.x1 <= fig.bbox.x1 + 0.5, t.get_text()
    grouped = [s for s in strings if s.startswith("27 runs: no MFU: hardware unknown")]
    assert len(grouped) == 1
    assert sum(s.count("run") for s in strings if "run0" in s or "run1" in s or "run2" in s) >= 27
    failure = " ".join(s.strip() for s in strings if s.startswith(("jobx_slurm-1234:", "    ")))
    assert re.sub(r"\s+", " ", LONG_ERROR) in re.sub(r"\s+", " ", failure)  # the whole message, wrapped


# ------------------------------------------------------------------------------------------------
# index.html


class Page(HTMLParser):
    """The table's header names and, per row, its cells' text (the <summary> of a <details> apart) and
    attributes."""

    def __init__(self):
        super().__init__()
        self.headers: list[str] = []
        self.rows: list[dict] = []
        self._cell: list[str] | None = None
        self._in_th = False
        self._in_summary = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and a.get("data-run") is not None:
            self.rows.append({"run": a["data-run"], "class": a.get("class"), "cells": [], "imgs": [],
                              "details": [], "titles": []})  # fmt: skip
        elif tag == "th":
            self._in_th = True
            self.headers.append("")
        elif tag == "td" and self.rows:
            self._cell = []
            self.rows[-1]["cells"].append(self._cell)
        elif tag == "img" and self.rows:
            self.rows[-1]["imgs"].append(a.get("src"))
        elif tag == "summary" and self.rows:
            self._in_summary = True
            self.rows[-1]["details"].append("")
        if self.rows and a.get("title"):
            self.rows[-1]["titles"].append(a["title"])

    def handle_endtag(self, tag):
        if tag == "th":
            self._in_th = False
        elif tag == "td":
            self._cell = None
        elif tag == "summary":
            self._in_summary = False

    def handle_data(self, data):
        if self._in_th:
            self.headers[-1] += data.strip()
        elif self._in_summary:
            self.rows[-1]["details"][-1] += data
        elif self._cell is not None:
            self._cell.append(data)

    def cell(self, run: str, header: str) -> str:
        row = next(r for r in self.rows if r["run"] == run)
        return "".join(row["cells"][self.headers.index(header)]).strip()


RUNS = ("megatron_llama2-7b_8xh100", "generic_json_cpu", "generic_pipe_cpu")


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """Three sample logs and a broken one through `logparse batch` (no --hw: no run has an MFU)."""
    out = batch_with_a_broken_run(tmp_path_factory.mktemp("pictures22"), RUNS)
    html = (out / "index.html").read_text()
    p = Page()
    p.feed(html)
    return out, p, html


def test_the_page_has_a_framework_column(page):
    _, p, _ = page
    assert "framework" in p.headers
    assert p.cell("megatron_llama2-7b_8xh100", "framework") == "megatron"
    assert p.cell("generic_json_cpu", "framework") == "generic"


def test_the_no_mfu_reason_is_in_the_cell_not_only_a_tooltip(page):
    _, p, _ = page
    # the megatron sample prints its GPUs (world size 8) and dims; no --hw was given
    text = p.cell("megatron_llama2-7b_8xh100", "MFU")
    assert text == "no MFU: hardware unknown (pass --hw NAME or --peak-tflops X)"


def test_tokens_per_gpu_read_one_way(page):
    # megatron's stable window: ~9,646 tokens/s/GPU; generic_pipe prints ~28,000 tokens/s on 1 GPU
    _, p, _ = page
    for run in ("megatron_llama2-7b_8xh100", "generic_pipe_cpu"):
        assert re.fullmatch(r"\d{1,2},\d{3}", p.cell(run, "tokens/s/GPU")), p.cell(run, "tokens/s/GPU")


def test_the_hardware_cell_is_short_and_its_tooltip_says_what_is_unknown_and_the_flag(page):
    # the cell is `device × GPUs` (? for one unknown), one short line: the MFU cell says why there is no MFU
    _, p, _ = page
    for r in p.rows:
        cell = p.cell(r["run"], "hardware")
        assert cell and "unknown hardware" not in cell
    assert p.cell("megatron_llama2-7b_8xh100", "hardware") == "? \u00d7 8"
    row = next(r for r in p.rows if r["run"] == "megatron_llama2-7b_8xh100")
    assert "hardware unknown (pass --hw NAME or --peak-tflops X); 8 GPUs" in row["titles"]
    assert p.cell("broken", "hardware") == "n/a"


def test_a_dip_whose_cost_cannot_be_measured_says_unknown_not_0(page):
    # generic_json_cpu dips at steps 10-11 (tokens/s 31,925 and 27,960 against ~37,000 around them, lines
    # 13-14) while those steps (0.0160 s, 0.0183 s as logged) are quicker than the stable window's median
    # step time the cost is measured against: the cost is unknown, not 0
    out, p, _ = page
    s = json.loads((out / "generic_json_cpu" / "summary.json").read_text())
    assert len(s["dips"]) == 1 and s["dips"][0]["start_step"] == 10 and not s["dips"][0]["lost_s"]
    assert s["stable"]["step_time_s"] > 0.0183
    assert p.cell("generic_json_cpu", "dips") == "1"
    assert p.cell("generic_json_cpu", "dip cost (s)") == "unknown"
    row = next(r for r in p.rows if r["run"] == "generic_json_cpu")
    assert any("cost unknown" in t for t in row["titles"])
    assert p.cell("megatron_llama2-7b_8xh100", "dip cost (s)") not in ("0", "unknown")  # two dips, measured


def test_failed_rows_come_first_on_one_line_with_the_full_text_on_demand(page):
    _, p, html = page
    assert p.rows[0]["run"] == "broken" and p.rows[0]["class"] == "error"
    assert all(r["class"] != "error" for r in p.rows[1:])
    (summary,) = p.rows[0]["details"]
    assert summary.startswith("recognised as megatron, but it has no training step lines")  # one line
    assert re.search(r"tr\.error details > summary \{[^}]*white-space: nowrap", html)  # one line until opened


def test_thumbnails_are_small_pngs_made_for_the_page(page):
    out, p, _ = page
    for r in p.rows[1:]:
        (src,) = r["imgs"]
        assert src.endswith("/thumb.png")
        thumb, report = out / src, out / src.replace("thumb.png", "report.png")
        assert matplotlib.image.imread(thumb).shape[1] == 320
        assert thumb.stat().st_size < 40_000 and thumb.stat().st_size < report.stat().st_size / 4
    assert p.rows[0]["imgs"] == []  # a failed run has no report
