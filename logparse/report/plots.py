"""Plots: the one-figure report a person reads in ten seconds (matplotlib, drawn on an Agg canvas)."""

from __future__ import annotations

import io
import re
import sys
import textwrap
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.legend_handler import HandlerTuple
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Text
from matplotlib.ticker import AutoLocator, FuncFormatter, ScalarFormatter

from ..core.summary_types import LABELS, HardwarePart, Summary
from .figdata import ReportData
from .glyphs import new_renderer
from .pngfile import save_figure
from .styles import DIP_COLOR, DIP_STYLES, EVENT_STYLES, LANE_ROWS, RESTART_COLOR, Style, style_of
from .thumbnail import canvas_image, save_thumbnail
from .unknowns import Unknown, mfu_blockers, unknowns
from .words import duration, ledger_order

if TYPE_CHECKING:
    from .analysis import Findings

DPI = 110
WARMUP_COLOR = "#bbbbbb"
STABLE_COLOR = "#2ca02c"
REGIME_COLOR = "#ff7f0e"  # regimes other than the stable one, and the shifts between them
CURVE_COLOR = "#1f77b4"
CLIP_COLOR = "#333333"
ENVELOPE_ABOVE = 4000  # steps; beyond this the curves are drawn as per-bin envelopes
ENVELOPE_BINS = 1500
CLIP_LABELS = 3  # per panel edge, the most extreme values beyond the axis get their value written
MAX_EVENT_LINES = 24  # more marks of one kind than this: lane marks only, lines would hide the curves

# the figure's geometry, in inches, so panels keep their size whatever the legend and the lane need
WIDTH_IN = 12.0
PANEL_IN = 2.3
LANE_ROW_IN = 0.2
TITLE_IN = 0.5
BOTTOM_IN = 1.05
GAP_IN = 0.28
LEFT, RIGHT = 0.07, 0.985


CLIPPED_LABEL = "beyond the axis (value written)"


# ------------------------------------------------------------------------------------------------
# text: every string logparse draws is drawn as itself. matplotlib reads a string with
# two unescaped `$` as mathtext (a log named `lr_$1e-4_$.log` raised ValueError from its parser, `a_$x^2$`
# was drawn as math) and, with a user's `text.usetex: True`, sends every string to LaTeX (`_` is an error
# there, and latex may not be installed). Both are rcParams read when a Text is made
# (matplotlib/text.py: `parse_math=None, # defaults to rcParams['text.parse_math']`), so the figures are
# built, and drawn, with them off; with parse_math off a formatter's own `$10^{3}$` would show raw, so
# ticks are not written in mathtext either.
PLAIN_TEXT = {"text.parse_math": False, "text.usetex": False, "axes.formatter.use_mathtext": False}
# a lone surrogate (a name decoded with surrogate escapes, `caf\udce9`) is refused by matplotlib's font
# layer (TypeError from FT2Font.set_text); other control characters have no glyph (a warning each)
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def plain_text():
    """A context (rcParams) under which every Text made is plain text: no mathtext, no LaTeX."""
    return matplotlib.rc_context(PLAIN_TEXT)


class PlainFigure(Figure):
    """A Figure drawn under plain_text(): tick labels, which matplotlib makes when it draws (in a notebook
    long after build_report returned), are plain text like the rest. Pass it as `FigureClass` to pyplot.

    It shows itself in Jupyter as the PNG it saves (`_repr_png_`, the display protocol IPython asks every
    object a cell returns for): a report is drawn on its own Agg canvas, not pyplot's, so IPython's own
    figure display (`%matplotlib inline`) knows nothing of it."""

    def draw(self, renderer):
        with plain_text():
            super().draw(renderer)

    def _repr_png_(self) -> bytes:
        out = io.BytesIO()
        self.savefig(out, format="png", dpi=self.dpi)
        return out.getvalue()

    def show(self, warn: bool = True) -> None:
        """In IPython (a notebook, its console), display the figure; elsewhere Figure.show, which shows only
        a figure pyplot made."""
        ipython = sys.modules.get("IPython")  # (not imported: not in IPython)
        if ipython is not None and ipython.get_ipython() is not None:
            from IPython.display import display

            display(self)
            return
        super().show(warn)


def plain(s: object) -> str:
    """A string as it can be drawn: a byte that was not UTF-8 (a lone surrogate) as U+FFFD, a control
    character other than a newline as a space."""
    return _CONTROL.sub(" ", _SURROGATE.sub("\ufffd", str(s)))


def envelope(x: np.ndarray, y: np.ndarray, bins: int = ENVELOPE_BINS) -> tuple[np.ndarray, ...]:
    """Per-bin x centre, min, mean and max of y (NaNs ignored): a downsampling that keeps extremes."""
    edges = np.linspace(0, len(x), bins + 1).astype(int)
    starts = np.unique(edges[:-1][edges[1:] > edges[:-1]])  # (the empty bins left out)
    if not len(starts):
        return tuple(np.array([]) for _ in range(4))
    counts = np.diff(np.r_[starts, len(x)])
    ok = np.isfinite(y)
    n_ok = np.add.reduceat(ok.astype(np.int64), starts)
    with np.errstate(invalid="ignore", divide="ignore"):
        xs = np.add.reduceat(np.asarray(x, dtype=float), starts) / counts
        lo = np.fmin.reduceat(np.where(ok, y, np.nan), starts)
        hi = np.fmax.reduceat(np.where(ok, y, np.nan), starts)
        mean = np.where(n_ok > 0, np.add.reduceat(np.where(ok, y, 0.0), starts) / n_ok, np.nan)
    return xs, lo, mean, hi


def plot_report(
    analysis: Findings | ReportData, path: str | Path, dpi: float = DPI, thumb: str | Path | None = None
) -> None:
    """report.png: MFU, throughput, step time and loss against the step, with the phases shaded; and its
    thumbnail for the batch page at `thumb`, made from the pixels just drawn. `analysis`: a run's Findings, or
    the figures gathered from them (gather.report_data: what a process without pandas is sent)."""
    fig = build_report(analysis, dpi=dpi, reuse=True)
    save_figure(fig, path, dpi)
    if thumb is not None:
        save_thumbnail(canvas_image(fig), thumb)
    _let_go_of_pixels(fig)
    _Skeleton.keep(fig)


def _let_go_of_pixels(fig: Figure) -> None:
    """Take a written figure's pixels (its Agg renderer: 8 MB for a report) from it now, to be the next
    report's (_ReportCanvas). The figure itself is freed by the cyclic collector, which counts objects, not
    bytes: a batch's worker held a hundred reports' pixels (1.2 GB) before it ran. The canvas and
    each text drawn keep the renderer; another draw of this figure takes or makes one again (get_renderer
    compares _lastKey; a text asks the figure when its own is None)."""
    for text in fig.findobj(Text):
        text._renderer = None
    if isinstance(fig.canvas, _ReportCanvas):
        fig.canvas.give_back()


# renderers no figure uses, by (width px, height px, dpi): the last SPARES given back, oldest first
_SPARE: dict[tuple[Any, ...], Any] = {}
SPARES = 2  # a report is laid out at one size (its legend measured) and drawn at another


class _ReportCanvas(FigureCanvasAgg):
    """A report's Agg canvas, which takes a renderer that an earlier report of the same size gave back
    instead of making one: the one it was laid out with, given back when the figure grew to its final size,
    and the one it was drawn with (_let_go_of_pixels). A renderer is cleared before each draw
    (FigureCanvasAgg.draw), so the pixels are the same; what a batch's worker saves is matplotlib's text
    metrics, which are cached per renderer (text._get_text_metrics_function): every tick label, legend entry
    and title laid out again by FreeType for each report, an eighth of drawing it. A renderer is never shared:
    it is taken out of the spares, and a figure kept by its caller (a notebook's) keeps its own."""

    def get_renderer(self):
        w, h = self.get_width_height(physical=True)
        key = (w, h, self.figure.dpi)
        if self._lastKey != key:
            self.give_back()
            if key in _SPARE:
                self.renderer, self._lastKey = _SPARE.pop(key), key
            else:  # (what FigureCanvasAgg.get_renderer makes, as a renderer that keeps its glyphs: glyphs.py)
                self.renderer, self._lastKey = new_renderer(w, h, self.figure.dpi), key
        return super().get_renderer()

    def give_back(self) -> None:
        """This canvas's renderer, if any, to the spares (the oldest spare is let go beyond SPARES)."""
        if getattr(self, "renderer", None) is not None:
            _SPARE.pop(self._lastKey, None)
            _SPARE[self._lastKey] = self.renderer
            while len(_SPARE) > SPARES:
                del _SPARE[next(iter(_SPARE))]
        self.renderer, self._lastKey = None, None


def build_report(analysis: Findings | ReportData, dpi: float = DPI, reuse: bool = False) -> Figure:
    """The report figure: an event lane (when the run has events), then MFU, tokens/s, step time and
    loss panels sharing the step axis, one legend above them. Its own Agg canvas, not pyplot's: nothing
    to close, and importing this module leaves a notebook's backend alone. Every text in it is plain
    text (PlainFigure), whatever the log's names and the user's rcParams. `reuse`: drawn on the axes of a
    written report of the same layout (_Skeleton), for a figure the caller gives back once written."""
    if not isinstance(analysis, ReportData):
        from .gather import report_data  # (pandas: where Findings are, it is imported already)

        analysis = report_data(analysis)
    with plain_text():
        return _build_report(analysis, dpi, reuse)


def _build_report(d: ReportData, dpi: float, reuse: bool = False) -> Figure:
    s, x, marks = d.summary, d.x, d.marks
    panels = _panels(d)
    rows = [r for r in LANE_ROWS if any(style_of(k).row == r for k in marks)]
    ledger = s.get("goodput") if (s.get("goodput") or {}).get("goodput") is not None else None
    heights = ([LEDGER_IN] if ledger else []) + ([0.12 + LANE_ROW_IN * len(rows)] if rows else [])
    heights += [PANEL_IN] * len(panels)
    layout = (tuple(heights), dpi, ledger is not None)  # (heights first: _Skeleton.keep reads them)
    fig, axes = (reuse and _Skeleton.take(layout)) or _figure(heights, dpi, free_first=ledger is not None)
    fig._logparse_layout = layout  # (what _Skeleton.keep files it under)
    if ledger is not None:
        draw_ledger(axes[0], ledger)
        axes = axes[1:]
    lane, panel_axes = (axes[0], axes[1:]) if rows else (None, axes)

    legend: dict[str, tuple[Any, str]] = {}  # one entry per kind, in the order first drawn
    _phase_entries(legend, s)
    label, mfu_ax = _draw_panels(panel_axes, panels, d, legend)
    if lane is not None:
        lane.set_gid("lane")
        _draw_lane(lane, rows, d, legend)
    _event_vlines(panel_axes, marks)
    axes[0].set_xlim(*_x_limits(x, marks))
    axes[-1].set_xlabel("optimizer step")

    if _any_beyond(panel_axes, panels):
        legend["clipped"] = (_clip_handle(), CLIPPED_LABEL)
    title = fig.text(0.01, 1, _title(s, d.runs), fontsize=13, fontweight="bold", ha="left", va="top")
    fig.text(
        0.01,
        0.01,
        "\n".join(textwrap.wrap(plain(_assumptions(s)), 170)),
        fontsize=8,
        va="bottom",
        family="monospace",
        color="#333333",
    )
    leg, ncol, anchor = _layout(fig, heights, legend, title)
    _place_marks(fig, panel_axes, panels, x, label, mfu_ax)
    if "clipped" in legend and not _any_beyond(panel_axes, panels):
        # the headroom the label needed brought the only values beyond an axis inside it
        del legend["clipped"]
        leg.remove()
        _figure_legend(fig, legend, ncol, anchor)
    return fig


def _figure(heights: list[float], dpi: float, free_first: bool = False) -> tuple[Figure, list]:
    """The figure on its own Agg canvas, and one axes per height sharing the step axis (tick labels only
    on the last); with `free_first`, the first axes is its own (the goodput ledger's bar)."""
    fig = PlainFigure(figsize=(WIDTH_IN, sum(heights) + 3), dpi=dpi)
    _ReportCanvas(fig)
    grid = fig.add_gridspec(len(heights), 1, height_ratios=heights)
    axes = [fig.add_subplot(grid[i]) for i in range(int(free_first) + 1)]
    first = axes[-1]
    axes += [fig.add_subplot(grid[i], sharex=first) for i in range(len(axes), len(heights))]
    for ax in axes[int(free_first) : -1]:
        ax.tick_params(labelbottom=False)
    _locate_in_view(axes)
    return fig, axes


def _locate_in_view(axes: list) -> None:
    """Every axis's ticks at _InView's locations. In the axes' order: the panels' shared step axis has one
    locator, the last axes' (a wiped figure's are set again as a new one's were, _wiped)."""
    for ax in axes:
        ax.xaxis.set_major_locator(_InView())
        ax.yaxis.set_major_locator(_InView())


class _Skeleton:
    """The figure and axes of a written report, wiped, for the next report of the same layout (heights, dpi,
    ledger) in this process: a batch's worker draws hundreds of reports, most of one layout. Making a
    report's six axes (each with its axis, spines and first ticks) was 40 of its ~100 ms of building, and
    the ticks a draw makes (five artists each) a sixth of drawing; a wiped figure keeps its axes and ticks.
    Wiping takes every artist the report added out (lines, patches, collections, texts, the legend and the
    figure's texts) and puts back what a fresh figure has where a report changes it: the size, the
    subplot parameters, each axis's locator and default formatter, the labels and autoscaling; what the
    build sets on every axes of a layout alike (grids, tick parameters, hidden spines) it sets again. The
    report is the same, pixel for pixel (tests/test_report_image.py)."""

    KEPT = 2  # layouts kept, the latest
    _kept: dict[tuple[Any, ...], tuple[Figure, list]] = {}
    _lock = threading.Lock()  # a figure is one caller's at a time (a Dask worker may run threads)

    @classmethod
    def take(cls, layout: tuple[Any, ...]) -> tuple[Figure, list] | None:
        with cls._lock:
            return cls._kept.pop(layout, None)

    @classmethod
    def keep(cls, fig: Figure) -> None:
        layout = getattr(fig, "_logparse_layout", None)
        if layout is None or not isinstance(fig.canvas, _ReportCanvas):
            return
        with plain_text():
            axes = _wiped(fig, layout[0])
        with cls._lock:
            cls._kept.pop(layout, None)
            cls._kept[layout] = (fig, axes)
            while len(cls._kept) > cls.KEPT:
                del cls._kept[next(iter(cls._kept))]


def _wiped(fig: Figure, heights: tuple[float, ...]) -> list:
    """`fig`'s axes as _figure made them, the report drawn on them taken out (_Skeleton)."""
    for artist in [*fig.texts, *fig.legends]:
        artist.remove()
    fig.set_size_inches(WIDTH_IN, sum(heights) + 3)
    fig.subplots_adjust(**{k: matplotlib.rcParams[f"figure.subplot.{k}"] for k in _SUBPLOT_PARAMS})
    axes = list(fig.axes)
    for ax in axes:
        added = (ax.lines, ax.patches, ax.collections, ax.texts, ax.images, ax.artists, ax.tables)
        for artist in [a for kind in added for a in kind]:
            artist.remove()
        ax.containers.clear()
        ax.set_gid(None)
        ax.relim()
        ax.set_autoscaley_on(True)
        ax.set_ylim(0, 1, auto=None)
        for axis in (ax.xaxis, ax.yaxis):
            axis.label.set_text("")
            axis.label.set_color(matplotlib.rcParams["axes.labelcolor"])
        ax.yaxis.set_major_formatter(ScalarFormatter())
        ax.yaxis.isDefault_majfmt = True
    _locate_in_view(axes)
    return axes


_SUBPLOT_PARAMS = ("left", "bottom", "right", "top", "wspace", "hspace")


class _InView(AutoLocator):
    """matplotlib's default locator, less the locations beyond the view limits that it adds (one each side),
    for which the axis makes a tick (five artists: a fifth of drawing a report is making and updating ticks)
    that it then does not draw. A location at the limits, within far more than matplotlib's own tolerance
    (transforms._interval_contains_close, 1e-10 of the interval), is kept: every tick it draws is still here."""

    def __call__(self):
        locs = super().__call__()
        low, high = sorted(self.axis.get_view_interval())
        slack = 1e-6 * (high - low)
        return locs[(locs >= low - slack) & (locs <= high + slack)]


LEDGER_IN = 0.62
LEDGER_COLORS = {
    "productive": STABLE_COLOR,
    "startup": "#7f7f7f",
    "checkpoint": "#00838f",
    "eval": "#8c564b",
    "warmup": WARMUP_COLOR,
    "slow_steps": DIP_COLOR,
    "wasted_progress": "#e377c2",
    "hang": "#8b0000",
    "restart_recovery": RESTART_COLOR,
    "other": "#e0e0e0",
}
# parts whose name is written in white
LEDGER_DARK = ("productive", "checkpoint", "eval", "slow_steps", "hang", "restart_recovery", "startup")
LEDGER_BAR = 0.6  # the bar's height, a share of the ledger's axes (LEDGER_IN)
LEDGER_PAD_PT = 4  # room left around a part's name inside the bar


def _ledger_labels(name: str, share: float) -> list[str]:
    """A part's name and share as it may be written inside the bar: on one line, then on two, broken at each
    space in turn (`redone steps 6%`, `redone steps` over `6%`, `redone` over `steps 6%`)."""
    words = f"{name} {share:.0%}".split(" ")
    return [" ".join(words)] + [
        " ".join(words[:i]) + "\n" + " ".join(words[i:]) for i in range(len(words) - 1, 0, -1)
    ]


def draw_ledger(ax, g) -> None:
    """The goodput ledger: one stacked bar of the job's wall time, productive first, then the badput parts in
    the order the text's ledger line names them (largest first: words.ledger_order); every part named inside
    the bar where its name fits (on one line or two), the others in the caption below, in that order, with the
    GPU-hours."""
    ax.set_gid("ledger")
    wall = float(g["wall_s"])
    named = ledger_order(g["badput"])
    # (then the parts under half a second, which the text leaves out)
    rest = [(k, float(v)) for k, v in g["badput"].items() if v and k not in dict(named)]
    parts = [("productive", float(g["productive_s"] or 0.0)), *named, *rest]
    renderer = ax.figure.canvas.get_renderer()
    bar_px = WIDTH_IN * (RIGHT - LEFT) * ax.figure.dpi  # the bar's width: the figure's is fixed (_layout)
    high_px = LEDGER_IN * LEDGER_BAR * ax.figure.dpi
    pad = LEDGER_PAD_PT * ax.figure.dpi / 72
    left, small = 0.0, []
    for key, seconds in parts:
        share = seconds / wall if wall > 0 else 0.0
        ax.barh(
            0.66, seconds, left=left, height=LEDGER_BAR, color=LEDGER_COLORS[key], edgecolor="white", lw=0.6,
            gid=f"ledger:{key}",
        )  # fmt: skip
        name = LABELS[key]
        room = share * bar_px - pad
        ink = "white" if key in LEDGER_DARK else "#222222"
        drawn = None
        for label in _ledger_labels(name, share) if room > 0 else ():
            text = ax.text(
                left + seconds / 2, 0.66, label, ha="center", va="center", fontsize=8, linespacing=1.0, color=ink,
                clip_on=True, gid=f"ledger-label:{key}",
            )  # fmt: skip
            box = text.get_window_extent(renderer)
            if box.width <= room and box.height <= high_px - pad / 2:
                drawn = text
                break
            text.remove()
        if drawn is None and key != "productive" and seconds >= 0.5:
            small.append(f"{name} {share:.1%}" if share >= 0.0005 else f"{name} <0.1%")
        left += seconds
    ax.set_xlim(0, wall)
    ax.set_ylim(0, 1)
    ax.set_xticks([])
    ax.set_yticks([])
    for side in ("top", "right", "left", "bottom"):
        ax.spines[side].set_visible(False)
    caption = f"where the wall time went: goodput {g['goodput']:.0%} of {duration(wall)}"
    if g.get("gpu_hours") is not None:
        lost = sum(v for v in (g.get("gpu_hours_badput") or {}).values() if v)
        caption += f", {g['gpu_hours']:,.1f} GPU-hours ({lost:,.1f} not training"
        caption += f"; cost {g['cost']:,.2f})" if g.get("cost") is not None else ")"
    if small:
        caption += "; also " + ", ".join(small)
    ax.text(
        0, 0.13, plain(caption), transform=ax.transAxes, fontsize=8.5, va="center", ha="left", color="#333333"
    )


def _draw_panels(panel_axes, panels, d: ReportData, legend):
    """Each panel's phases, curve, stable lines and limits (an unknown one says what it needs); returns the
    stable-MFU label and its axes, placed once the layout is final (None, None when MFU is unknown)."""
    s, x = d.summary, d.x
    # rows whose logged value was NaN, infinite or unreadable: their gap in a curve is news, while other
    # rows without a value (a loss logged every fifth step) are stepped over
    gaps = d.gaps
    # steps whose timing cannot be right (utilization flags them) do not set the scale: they are marked
    # beyond the axis with their value
    impossible = d.impossible
    label = mfu_ax = None
    for ax, (ylabel, y, kind) in zip(panel_axes, panels, strict=True):
        ax.set_gid(f"panel:{kind}")
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
        _shade_phases(ax, d, kind)
        if y is None and kind == "mfu" and d.column("reported_mfu") is not None:
            y = d.column("reported_mfu") * 100
            _reported_mfu(ax, s, x, y, gaps)
            continue
        if y is None:
            _say_unknown(ax, s)
            continue
        _curve(ax, x, y, gaps, legend)
        _stable_lines(ax, s["stable"], kind, ylabel, (s.get("samples") or {}).get("samples_per_s_per_gpu"))
        limits = _y_limits(y[~impossible], kind)
        if limits is not None:
            ax.set_ylim(*limits)
        if kind == "tps" and ax.get_ylim()[1] >= 10_000:
            ax.yaxis.set_major_formatter(FuncFormatter(_thousands))
        if kind == "mfu" and s["stable"]["mfu_mean"] is not None:
            label, mfu_ax = _stable_label(ax, s["stable"]), ax
    return label, mfu_ax


def _thousands(v: float, _pos=None) -> str:
    """A tokens/s tick: `12k` below a million, `1.2M` from a million on ("1200k")."""
    if not v:
        return "0"
    if abs(v) >= 1e6:
        return f"{v / 1e6:g}M"
    return f"{v / 1000:g}k"


def _event_vlines(panel_axes, marks) -> None:
    """A vertical line through every panel at each event of a kind drawn as lines (not too many of it)."""
    for kind, xs in marks.items():
        st = style_of(kind)
        if st.line and len(xs) <= MAX_EVENT_LINES:
            for ax in panel_axes:
                # drawn above the grid (zorder 1.5) in the event's colour: a checkpoint every 100 steps
                # falls on the gridlines
                ax.vlines(
                    xs, 0, 1, transform=ax.get_xaxis_transform(), colors=st.color, linestyles=st.line,
                    lw=1.0, alpha=0.6, zorder=1.8, gid=f"vline:{kind}",
                )  # fmt: skip


def _place_marks(fig, panel_axes, panels, x, label, mfu_ax) -> None:
    """The limits and the geometry are final: the clipped values get their marks, and the stable label
    its place, from the data's display coordinates (no draw needed)."""
    renderer = fig.canvas.get_renderer()
    for ax, (_, y, kind) in zip(panel_axes, panels, strict=True):
        if y is None or kind not in ("mfu", "tps", "time"):
            continue
        if ax is mfu_ax:
            _place_label(ax, label, renderer, lambda ax=ax, y=y, kind=kind: _clip_marks(ax, x, y, kind))
        else:
            _clip_marks(ax, x, y, kind)


def _panels(d: ReportData) -> list[tuple[str, np.ndarray | None, str]]:
    """(y label, values, kind) per panel: MFU always (empty when unknown), then what the log gives."""
    mfu = d.column("mfu")
    panels = [("MFU (%)", mfu * 100 if mfu is not None else None, "mfu")]
    tps = d.column("tokens_per_s_per_gpu")
    if tps is not None:
        panels.append(("tokens/s per GPU", tps, "tps"))
    elif d.column("tokens_per_s") is not None:
        panels.append(("tokens/s (cluster)", d.column("tokens_per_s"), "tps"))
    elif d.summary.get("samples") is not None and d.column("samples_per_s_per_gpu") is not None:
        panels.append(("samples/s per GPU", d.column("samples_per_s_per_gpu"), "tps"))  # no tokens: samples
    elif d.summary.get("samples") is not None and d.column("samples_per_s") is not None:
        panels.append(("samples/s (cluster)", d.column("samples_per_s"), "tps"))
    if d.column("step_time_s") is not None:
        panels.append(("step time (s)", d.column("step_time_s"), "time"))
    if d.column("loss") is not None:
        panels.append(("loss", d.column("loss"), "loss"))
    return panels


def _title(s: Summary, runs: tuple[int, ...]) -> str:
    hw = s["hardware"]
    device = f"{hw['name'] or 'unknown hardware'} ({hw['dtype']})"
    gpus = f"{s['gpus']} x {device}" if s["gpus"] is not None else f"{device}, GPU count unknown"
    title = f"{plain(s['run'])}  |  {plain(gpus)}  |  {plain(s['format'])}"
    shown = _run_of_runs(s, runs)
    if shown:
        title += f"  |  {shown}"
    if s["stable"]["mfu_mean"] is not None:
        title += f"  |  stable MFU {s['stable']['mfu_mean']:.1%}"
    return title


def _run_of_runs(s: Summary, shown_runs: tuple[int, ...]) -> str | None:
    """`run 2 of 2` when the log holds several runs (segments' `run`, counted from 0) and the figure shows
    one of them (the analyzed rows' `run`); None for a one-run log."""
    runs = sorted({seg["run"] for seg in s.get("segments", [])})
    shown = set(shown_runs)
    if len(runs) < 2 or len(shown) != 1 or next(iter(shown)) not in runs:
        return None
    return f"run {runs.index(shown.pop()) + 1} of {len(runs)}"


def _draw_lane(ax, rows, d: ReportData, legend) -> None:
    """One row per kind of event, its marks at the steps: what happened where, above the curves."""
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_yticks(range(len(rows)), rows, fontsize=8)
    ax.tick_params(axis="y", length=0)
    ax.grid(axis="x", alpha=0.3)
    _shade_phases(ax, d, "lane")
    marks = d.marks
    shift = _lane_shifts(marks, d.x)
    # in the legend's order: a checkpoint load is drawn over the save it follows
    for kind in sorted(marks, key=_legend_order):
        xs = marks[kind]
        st = style_of(kind)
        drawn = _thinned(xs, d.x)
        # marks that touch (thinned: several a pixel) are drawn without their white rim, which would wash a
        # lane of saves every few steps out to a pale band
        rim = "white" if len(drawn) == len(xs) else st.color
        ax.plot(
            drawn, np.full(len(drawn), rows.index(st.row) + shift.get(kind, 0.0)), ls="none", marker=st.marker,
            color=st.color, ms=_ms(st), mec=rim, mew=0.5, clip_on=False, zorder=3, gid=f"event:{kind}",
        )  # fmt: skip
    for kind in sorted(marks, key=_legend_order):
        st = style_of(kind)
        n = f" ({len(marks[kind])})"
        if kind.startswith("dip:"):
            handle = (Patch(color=DIP_COLOR, alpha=0.25, lw=0), _mark_handle(st, line=False))
        else:
            handle = _mark_handle(st, line=st.line is not None and len(marks[kind]) <= MAX_EVENT_LINES)
        legend[kind] = (handle, st.label + n)


# of a lane row: how far apart two kinds of one row are drawn where their marks meet (at most 0.9 from the first
# to the last, within the row)
LANE_SHIFT = 0.5
MARK_PX = 12  # a lane mark's width in pixels (8 pt at the report's dpi), for telling when two marks meet


def _lane_shifts(marks: dict[str, np.ndarray], x: np.ndarray) -> dict[str, float]:
    """The vertical offset of each kind whose marks meet a mark of another kind of its row (a checkpoint loaded
    at the step one was saved): the kinds of that row are spread a little apart, each kind as a whole, so
    that neither hides the other; kinds that never meet stay on the row's line."""
    span = float(np.nanmax(x) - np.nanmin(x)) if len(x) else 0.0
    near = span * MARK_PX / (WIDTH_IN * (RIGHT - LEFT) * DPI)  # steps one mark covers
    by_row: dict[str, list[str]] = {}
    for kind in sorted(marks, key=_legend_order):
        by_row.setdefault(style_of(kind).row, []).append(kind)
    shifts: dict[str, float] = {}
    for kinds in by_row.values():
        if len(kinds) > 1 and any(
            _meet(marks[a], marks[b], near) for i, a in enumerate(kinds) for b in kinds[i + 1 :]
        ):
            apart = min(LANE_SHIFT, 0.9 / (len(kinds) - 1))
            shifts.update({k: apart * (i - (len(kinds) - 1) / 2) for i, k in enumerate(kinds)})
    return shifts


def _meet(a: np.ndarray, b: np.ndarray, near: float) -> bool:
    """Whether a mark of `a` lies within `near` steps of a mark of `b` (both sorted)."""
    if not len(a) or not len(b):
        return False
    at = np.clip(np.searchsorted(b, a), 1, len(b) - 1) if len(b) > 1 else np.zeros(len(a), int)
    gap = np.minimum(np.abs(a - b[at]), np.abs(a - b[at - 1]) if len(b) > 1 else np.inf)
    return bool((gap <= near).any())


# a lane with more marks than this draws one for each stretch of steps a quarter of a pixel wide (a log that saves
# every 8 steps has 300,000: drawn one over the other, 0.4 s of a report); the legend counts them all
THIN_ABOVE = 4000


def _thinned(xs: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Sorted marks `xs`, the first of each stretch a quarter of a pixel wide (the x axis spans at least the
    steps `x` over at most WIDTH_IN x DPI pixels): the marks left out lie under one drawn, the same picture."""
    if len(xs) <= THIN_ABOVE or not len(x):
        return xs
    span = max(float(np.nanmax(x)) - float(np.nanmin(x)), float(xs[-1] - xs[0]))
    cell = span / (WIDTH_IN * DPI * 4)
    if not cell > 0:
        return xs
    bins = np.floor((xs - xs[0]) / cell)
    return xs[np.r_[True, bins[1:] != bins[:-1]]]


def _legend_order(kind: str) -> tuple[int, int]:
    row = style_of(kind).row
    order = list(DIP_STYLES) if kind.startswith("dip:") else list(EVENT_STYLES)
    return LANE_ROWS.index(row), order.index(kind[4:] if kind.startswith("dip:") else kind)


def _ms(st: Style) -> float:
    return 10.0 if st.marker == "*" else 8.0  # a star's arms are thin


def _mark_handle(st: Style, line: bool) -> Line2D:
    return Line2D(
        [], [], color=st.color, marker=st.marker, ms=_ms(st), mec="white", mew=0.5, ls=st.line if line else "none",
        lw=1.1,
    )  # fmt: skip


# ------------------------------------------------------------------------------------------------
# panels


WINDOW_COLOR = "#1f3b73"  # the window the user asked for (--window, --last, --skip)


def _window(s: Summary) -> tuple[int, int, str] | None:
    """The steps of the window the user asked for and its rule (`steps 35..44 (--window 35:44)`)."""
    w = s.get("window")
    if not w or w.get("first_step") is None or w.get("last_step") is None:
        return None
    return int(w["first_step"]), int(w["last_step"]), str(w.get("rule") or "")


def _stable_from(s: Summary, x: np.ndarray) -> tuple[float | None, str | None]:
    """Where the stable band begins, and what the steps before its first logged one are. A log that prints
    every Nth step (torchtitan: 1, 10, 20, 30, ...) has no line for the steps between the warmup's last
    line and the window's first: that line's figures cover them (step 30 reports steps 21-30), so the band
    begins after the warmup's last line, and a note at its start says so."""
    start = s["stable"]["start_step"]
    if start is None or not len(x):
        return None, None
    before = x[x < start]
    if not len(before):
        return float(start), None
    prev = int(before.max())
    if start - prev <= 1:
        return float(start), None
    return prev + 0.5, (f"steps {prev + 1}-{start - 1}: no line; the line at step {start} covers them")


def _phase_entries(legend, s) -> None:
    if s["warmup_steps"]:
        legend["warmup"] = (Patch(color=WARMUP_COLOR, alpha=0.5, lw=0), "warmup")
    if s["stable"]["start_step"] is not None:  # no window found, none drawn: no legend entry
        legend["stable"] = (Patch(color=STABLE_COLOR, alpha=0.3, lw=0), "stable window")
    window = _window(s)
    if window:
        legend["window"] = (
            Patch(facecolor="none", edgecolor=WINDOW_COLOR, hatch="//", lw=0.8),
            f"window asked for: {plain(window[2] or f'steps {window[0]}..{window[1]}')}",
        )
    if s.get("shifts"):
        legend["shift"] = (
            Line2D([], [], color=REGIME_COLOR, lw=1.4),
            f"shifts ({len(s['shifts'])}), other regimes shaded",
        )


def _shade_phases(ax, d: ReportData, kind: str) -> None:
    """Warmup, the stable window, other regimes and shifts, restart warmups and dips, on every panel."""
    s, x = d.summary, d.x
    st = s["stable"]
    if s["warmup_steps"] and len(x) and d.warmup_end is not None:
        ax.axvspan(x[0], d.warmup_end + 0.5, color=WARMUP_COLOR, alpha=0.35, lw=0)
    if st["start_step"] is not None:
        begin, note = _stable_from(s, x)
        ax.axvspan(begin, st["end_step"], color=STABLE_COLOR, alpha=0.07, lw=0, gid="stable-band")
        if note and kind == "mfu":  # the steps between the warmup's last line and the window's first
            ax.annotate(
                note, (begin, 1.0), xycoords=("data", "axes fraction"), xytext=(3, -3), textcoords="offset points",
                ha="left", va="top", fontsize=7.5, color="#555555", gid="unlogged-steps",
            )  # fmt: skip
    window = _window(s)
    if window:
        ax.axvspan(
            window[0] - 0.5, window[1] + 0.5, facecolor="none", edgecolor=WINDOW_COLOR, hatch="//", lw=0.8,
            alpha=0.5, zorder=1.2, gid="window",
        )  # fmt: skip
    for r in s.get("regimes", []):
        if not r["stable"] and len(s["regimes"]) > 1:
            ax.axvspan(r["start_step"], r["end_step"], color=REGIME_COLOR, alpha=0.08, lw=0)
            if kind == "mfu" and r["mfu_median"] is not None:
                ax.hlines(
                    r["mfu_median"] * 100, r["start_step"], r["end_step"], color=REGIME_COLOR, lw=1.5, ls="--"
                )
    for sh in s.get("shifts", []):
        ax.axvline(sh["at_step"], color=REGIME_COLOR, lw=1.4, gid="vline:shift")
        if kind == "mfu":
            ax.annotate(
                f"{sh['change']:+.0%}",
                (sh["at_step"], 1.0),
                xycoords=("data", "axes fraction"),
                xytext=(3, -12),
                textcoords="offset points",
                color=REGIME_COLOR,
                fontsize=9,
                fontweight="bold",
            )
    for first, last in d.restarts:
        ax.axvspan(first - 0.5, last + 0.5, color=WARMUP_COLOR, alpha=0.35, lw=0)
    min_width = 0.004 * (x[-1] - x[0]) if len(x) > 1 else 1  # a one-step dip in a long run stays visible
    for d in s["dips"]:
        half = max((d["end_step"] - d["start_step"] + 1) / 2, min_width / 2)
        centre = (d["start_step"] + d["end_step"]) / 2
        ax.axvspan(centre - half, centre + half, color=DIP_COLOR, alpha=0.25, lw=0)


REPORTED_COLOR = "#7f3c8d"  # the framework's own MFU, drawn when logparse's cannot be had


def _reported_mfu(ax, s, x, y, gaps) -> None:
    """The MFU panel when logparse has no MFU of its own but the log prints one (nanoGPT's `mfu` on every
    step): the framework's figure, drawn in its own colour and named as the framework's (the axis label), with what
    logparse's own figure needs written in the panel."""
    framework = (s.get("reported") or {}).get("framework") or s["format"]
    drawn = np.isfinite(y) | gaps
    ax.plot(
        x[drawn], y[drawn], lw=1.0, color=REPORTED_COLOR, marker="o" if drawn.sum() <= 60 else None, ms=3,
        gid="reported-mfu",
    )  # fmt: skip
    ax.set_ylabel(f"MFU (%) as\n{plain(framework)} prints it", color=REPORTED_COLOR)  # whose figure it is
    limits = _y_limits(y, "mfu")
    if limits is not None:
        ax.set_ylim(*limits)
    ax.text(
        0.5, 0.04, "logparse's own MFU: " + _missing(s), transform=ax.transAxes, ha="center", va="bottom",
        fontsize=8.5, color="#555555", gid="own-mfu-unknown",
    )  # fmt: skip


def _say_unknown(ax, s) -> None:
    ax.text(
        0.5,
        0.5,
        "no MFU: " + _missing(s),  # the page's words (batch/page.py no_mfu_reason)
        transform=ax.transAxes,
        ha="center",
        va="center",
        fontsize=10,
        color="#555555",
        wrap=True,
    )
    ax.set_yticks([])


def _curve(ax, x, y, gaps, legend) -> None:
    drawn = np.isfinite(y) | gaps
    x, y = x[drawn], y[drawn]
    if len(x) > ENVELOPE_ABOVE:
        # too many steps to draw one by one: per bin, the min-max envelope (its outline too, so a one-step
        # dip narrower than a pixel still shows) and the mean
        xs, lo, mean, hi = envelope(np.asarray(x, dtype=float), y)
        ax.fill_between(
            xs, lo, hi, facecolor=(*to_rgb(CURVE_COLOR), 0.3), edgecolor=(*to_rgb(CURVE_COLOR), 0.6), lw=0.5,
            gid="envelope",
        )  # fmt: skip
        ax.plot(xs, mean, lw=0.8, color=CURVE_COLOR, gid="curve")
        per = len(x) / len(xs) * float(np.median(np.diff(x))) if len(x) > 1 else 1.0
        n = f"{per:.0f}" if abs(per - round(per)) < 0.05 else f"~{per:.0f}"
        legend["envelope"] = (
            (Patch(color=CURVE_COLOR, alpha=0.3, lw=0), Line2D([], [], color=CURVE_COLOR, lw=0.8)),
            f"min-max per {n} steps, line: mean",
        )
    else:
        ax.plot(x, y, lw=1.0, color=CURVE_COLOR, marker="o" if len(x) <= 60 else None, ms=3, gid="curve")


def _stable_lines(ax, st, kind: str, label: str, samples_per_gpu: float | None = None) -> None:
    """The stable window's mean across it: MFU (in %), and per-GPU tokens/s (or samples/s, for a run that
    counts samples: `samples_per_gpu`)."""
    if kind == "mfu" and st["mfu_mean"] is not None:
        level, lw = st["mfu_mean"] * 100, 2
    elif kind == "tps" and st["tokens_per_s_per_gpu"] is not None and label.endswith("per GPU"):
        level, lw = st["tokens_per_s_per_gpu"], 1.5
    elif kind == "tps" and label == "samples/s per GPU" and samples_per_gpu is not None:
        level, lw = samples_per_gpu, 1.5
    else:
        return
    ax.hlines(level, st["start_step"], st["end_step"], color=STABLE_COLOR, lw=lw, gid="stable-line")


def _stable_label(ax, st):
    return ax.text(
        0,
        0,
        f"stable MFU {st['mfu_mean']:.1%}  (steps {st['start_step']}-{st['end_step']}, "
        f"median {st['mfu_median']:.1%})",
        transform=ax.transAxes,
        ha="left",
        va="bottom",
        color=STABLE_COLOR,
        fontsize=10,
        fontweight="bold",
        bbox={"facecolor": "white", "alpha": 0.85, "edgecolor": STABLE_COLOR, "boxstyle": "round"},
        zorder=6,
        gid="stable-label",
    )


def _y_limits(y, kind: str) -> tuple[float, float] | None:
    """MFU, tokens/s and step time all start at 0, so a curve's height is its value: a 2% wobble looks
    like 2% and a dip as deep in step time as in MFU (zooming step time alone made noise look like
    collapse next to an MFU panel from 0). The top is the 99.5th percentile plus a margin (more on MFU,
    for its label); the few values beyond it are marked at the edge with their value (_clip_marks)."""
    finite = y[np.isfinite(y)]
    if not len(finite) or kind not in ("mfu", "tps", "time"):
        return None
    # the values themselves (no interpolation): in a short run the one extreme value is left out rather
    # than pulling the top halfway to it
    lo, hi = _ranked(finite, 0.5, 99.5)
    bottom = min(0.0, float(lo))
    top = float(hi) * (1.25 if kind == "mfu" else 1.1) if hi > 0 else 1.0
    # the highest value, when it would stretch the axis by less than half, is shown rather than clipped
    top = max(top, float(finite.max()) * 1.05) if finite.max() * 1.05 <= 1.5 * top else top
    return bottom, max(top, bottom + 1e-9)


def _ranked(values: np.ndarray, low: float, high: float) -> tuple[float, float]:
    """`np.percentile(values, low, method="higher")` and `np.percentile(values, high, method="lower")` with one
    partition of the values (they are the values ranked ceil(low% x (n - 1)) and floor(high% x (n - 1)))."""
    n = len(values)
    a = min(int(np.ceil(low / 100 * (n - 1))), n - 1)
    b = max(int(np.floor(high / 100 * (n - 1))), 0)
    part = np.partition(values, sorted({a, b}))
    return float(part[a]), float(part[b])


def _any_beyond(panel_axes, panels) -> bool:
    """Whether a panel scaled by percentiles has values beyond its y limits."""
    for ax, (_, y, kind) in zip(panel_axes, panels, strict=True):
        if y is not None and kind in ("mfu", "tps", "time"):
            lo, hi = ax.get_ylim()
            finite = y[np.isfinite(y)]
            if ((finite > hi) | (finite < lo)).any():
                return True
    return False


def _value_text(v: float, kind: str) -> str:
    num = f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}"
    return {"time": f"{num} s", "mfu": f"{num}%"}.get(kind, num)


def _clip_handle() -> Line2D:
    return Line2D([], [], ls="none", marker="^", color=CLIP_COLOR, ms=6)


def _clip_marks(ax, x, y, kind: str) -> list:
    """Values beyond the y limits: a triangle at the edge at their step, pointing the way they went, and
    for the few most extreme (not crowding each other) the value beside it. Returns the artists."""
    bottom, top = ax.get_ylim()
    x0, x1 = ax.get_xlim()
    artists: list = []
    finite = np.isfinite(y)
    for beyond, edge, marker, va, dy in (
        (finite & (y > top), top, "^", "top", -3),
        (finite & (y < bottom), bottom, "v", "bottom", 3),
    ):
        if not beyond.any():
            continue
        xs, vs = x[beyond], y[beyond]
        (mark,) = ax.plot(
            xs, np.full(len(xs), edge), ls="none", marker=marker, color=CLIP_COLOR, ms=6, clip_on=False,
            zorder=5, gid="clipped",
        )  # fmt: skip
        artists.append(mark)
        written: list[float] = []
        for i in np.argsort(-np.abs(vs - edge), kind="stable"):
            frac = (xs[i] - x0) / (x1 - x0) if x1 > x0 else 0.5
            if len(written) == CLIP_LABELS:
                break
            if any(abs(frac - f) < 0.08 for f in written):
                continue
            written.append(frac)
            right = frac > 0.88  # near the right edge the value goes on the marker's left
            artists.append(
                ax.annotate(
                    _value_text(vs[i], kind), (xs[i], edge), xytext=(-6 if right else 6, dy),
                    textcoords="offset points", ha="right" if right else "left", va=va, fontsize=8,
                    color=CLIP_COLOR, annotation_clip=False, zorder=5, gid="clipped-value",
                    bbox={"facecolor": "white", "alpha": 0.7, "edgecolor": "none", "pad": 1},
                )
            )  # fmt: skip
    return artists


def _x_limits(x, marks) -> tuple[float, float]:
    xs = [x[np.isfinite(x)]] + list(marks.values())
    allx = np.concatenate(xs) if xs else np.array([])
    if not len(allx):
        return 0.0, 1.0
    lo, hi = float(allx.min()), float(allx.max())
    pad = 0.02 * (hi - lo) if hi > lo else 1.0
    return lo - pad, hi + pad


# ------------------------------------------------------------------------------------------------
# layout: the legend above the panels, sizes in inches


def _figure_legend(fig, legend, ncol, anchor):
    # matplotlib fills a legend column by column; reordered so that it reads by rows, in drawing order
    entries = list(legend.values())
    rows, longer = divmod(len(entries), ncol)
    entries = [entries[i * ncol + j] for j in range(ncol) for i in range(rows + (j < longer))]
    handles = [h for h, _ in entries]
    labels = [lab for _, lab in entries]
    return fig.legend(
        handles,
        labels,
        loc="upper left",
        bbox_to_anchor=anchor,
        ncol=ncol,
        fontsize=8,
        frameon=False,
        handlelength=2.4,
        columnspacing=1.6,
        borderaxespad=0.0,
        handler_map={tuple: HandlerTuple(ndivide=None, pad=0)},
    )


def _layout(fig, heights, legend, title):
    """One legend for the whole figure between the title and the panels, in as few rows as fit the width,
    its entries spread evenly over them; then the figure's height from the panels' fixed inches. The
    panels' geometry is final after this (no tight_layout: it would draw the whole figure once more just
    to measure it)."""
    renderer = fig.canvas.get_renderer()
    width = WIDTH_IN * (RIGHT - LEFT) * fig.dpi
    entries = len(legend)
    for rows in range(1, max(entries, 1) + 1):  # an empty legend (no window, no events) still takes a row
        ncol = max(1, -(-entries // rows))
        leg = _figure_legend(fig, legend, ncol, (LEFT, 0.9))
        if ncol == 1 or leg.get_window_extent(renderer).width <= width:
            break
        leg.remove()
    legend_in = leg.get_window_extent(renderer).height / fig.dpi
    top_in = TITLE_IN + legend_in + 0.15
    n = len(heights)
    height = top_in + sum(heights) + GAP_IN * (n - 1) + BOTTOM_IN
    fig.set_size_inches(WIDTH_IN, height)
    title.set_y(1 - 0.12 / height)
    anchor = (LEFT - 0.005, 1 - TITLE_IN / height)
    leg.set_bbox_to_anchor(anchor, transform=fig.transFigure)
    fig.subplots_adjust(
        left=LEFT,
        right=RIGHT,
        top=1 - top_in / height,
        bottom=BOTTOM_IN / height,
        hspace=GAP_IN * n / sum(heights),
    )
    return leg, ncol, anchor


# ------------------------------------------------------------------------------------------------
# the stable label: placed where the curves are not


def _place_label(ax, label, renderer, clip_marks) -> None:
    """Put the label in the first free place: the top corners, the bottom corners, then along the top and
    the bottom edges; free means its box (with its rounded frame) crosses no curve segment, marker, band
    or text of the panel. If none is free, grow the top limit one label height at a time (at most four);
    still none, back to the data's limits and the least covered place. `clip_marks` draws the clipped
    values' marks for the current limits (they move with them) and returns their artists."""
    pt = ax.figure.dpi / 72
    pad = (0.3 * label.get_fontsize() + 1) * pt  # the round box's pad, and its frame
    ext = label.get_window_extent(renderer)
    w, h = ext.width + 2 * pad, ext.height + 2 * pad
    inset, margin = 4 * pt, 2 * pt
    bottom, top = ax.get_ylim()
    marks = clip_marks()

    def covered() -> list[tuple[int, float, float]]:
        obstacles = _obstacles(ax, renderer, skip=label)
        return [
            (_hits((x0 - margin, y0 - margin, x0 + w + margin, y0 + h + margin), obstacles), x0, y0)
            for x0, y0 in _candidates(ax.bbox, w, h, inset)
        ]

    for grown in range(5):  # the data's limits, then up to four label heights more
        free = [(x0, y0) for hits, x0, y0 in covered() if hits == 0]
        if free:
            _put(ax, label, free[0][0] + pad, free[0][1] + pad)
            return
        if grown == 4:
            break
        # no free place: a band of one label's height above the current top
        lo, hi = ax.get_ylim()
        for a in marks:
            a.remove()
        ax.set_ylim(lo, lo + (hi - lo) / (1 - (h + 2 * inset) / ax.bbox.height))
        marks = clip_marks()
    for a in marks:
        a.remove()
    ax.set_ylim(bottom, top)
    clip_marks()
    _, x0, y0 = min(covered(), key=lambda c: c[0])
    _put(ax, label, x0 + pad, y0 + pad)


def _put(ax, label, x, y) -> None:
    label.set_position(ax.transAxes.inverted().transform((x, y)))


def _candidates(box, w, h, inset):
    right, left = box.x1 - inset - w, box.x0 + inset
    top, bottom = box.y1 - inset - h, box.y0 + inset
    if right < left:
        right = left
    yield from ((right, top), (left, top), (right, bottom), (left, bottom))
    for y in (top, bottom):
        for x in np.linspace(right, left, 14)[1:-1]:
            yield x, y


@dataclass
class _Obstacles:
    polylines: list[np.ndarray]  # display coordinates, NaN breaks a line
    points: list[tuple[np.ndarray, float]]  # marker centres and their radius
    boxes: list[tuple[float, float, float, float]]
    polygons: list[Any]  # matplotlib Paths in display coordinates (filled bands)


def _obstacles(ax, renderer, skip) -> _Obstacles:
    """What the label must not cover in this panel, in display coordinates: its lines and markers (not
    the full-height event lines, which it may cross), filled bands, and texts."""
    pt = ax.figure.dpi / 72
    out = _Obstacles([], [], [], [])
    for line in ax.lines:
        if str(line.get_gid()).startswith("vline") or not line.get_visible():
            continue
        xy = line.get_transform().transform(np.asarray(line.get_xydata(), dtype=float))
        if line.get_linestyle() not in ("None", "none", "", " "):
            out.polylines.append(xy)
        if line.get_marker() not in (None, "None", "none", ""):
            out.points.append((xy[np.isfinite(xy).all(axis=1)], line.get_markersize() * pt / 2))
    for coll in ax.collections:
        if str(coll.get_gid()).startswith("vline"):
            continue
        tr = coll.get_transform()
        if isinstance(coll, LineCollection):
            out.polylines += [tr.transform(np.asarray(seg, dtype=float)) for seg in coll.get_segments()]
        elif isinstance(coll, PolyCollection):
            for path in coll.get_paths():
                disp = path.transformed(tr)
                out.polylines.append(disp.vertices)
                out.polygons.append(disp)
    for text in ax.texts:
        if text is skip or not text.get_visible():
            continue
        b = text.get_window_extent(renderer)
        out.boxes.append((b.x0 - 2 * pt, b.y0 - 2 * pt, b.x1 + 2 * pt, b.y1 + 2 * pt))
    return out


def _hits(rect, obs: _Obstacles) -> int:
    """How many of the obstacles the rectangle (x0, y0, x1, y1) touches."""
    x0, y0, x1, y1 = rect
    n = sum(_segments_in(rect, xy) for xy in obs.polylines)
    for pts, r in obs.points:
        if len(pts):
            n += int(
                (
                    (pts[:, 0] >= x0 - r)
                    & (pts[:, 0] <= x1 + r)
                    & (pts[:, 1] >= y0 - r)
                    & (pts[:, 1] <= y1 + r)
                ).sum()
            )
    n += sum(1 for bx0, by0, bx1, by1 in obs.boxes if bx0 < x1 and bx1 > x0 and by0 < y1 and by1 > y0)
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    n += sum(1 for p in obs.polygons if p.contains_point(centre))
    return n


def _segments_in(rect, xy: np.ndarray) -> int:
    """How many segments of the polyline cross or lie in the rectangle (Liang-Barsky clipping)."""
    if len(xy) < 2:
        return 0
    p, q = xy[:-1], xy[1:]
    ok = np.isfinite(p).all(axis=1) & np.isfinite(q).all(axis=1)
    p, q = p[ok], q[ok]
    x0, y0, x1, y1 = rect
    # quick reject: both ends beyond the same side
    out = (
        ((p[:, 0] < x0) & (q[:, 0] < x0))
        | ((p[:, 0] > x1) & (q[:, 0] > x1))
        | ((p[:, 1] < y0) & (q[:, 1] < y0))
        | ((p[:, 1] > y1) & (q[:, 1] > y1))
    )
    p, q = p[~out], q[~out]
    if not len(p):
        return 0
    d = q - p
    t0, t1 = np.zeros(len(p)), np.ones(len(p))
    keep = np.ones(len(p), dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        for dk, qk in (
            (-d[:, 0], p[:, 0] - x0),
            (d[:, 0], x1 - p[:, 0]),
            (-d[:, 1], p[:, 1] - y0),
            (d[:, 1], y1 - p[:, 1]),
        ):
            parallel = dk == 0
            keep &= ~(parallel & (qk < 0))
            r = qk / dk
            t0 = np.where(~parallel & (dk < 0), np.maximum(t0, r), t0)
            t1 = np.where(~parallel & (dk > 0), np.minimum(t1, r), t1)
    return int((keep & (t0 <= t1)).sum())


# ------------------------------------------------------------------------------------------------
# text


def _missing(s: Summary) -> str:
    """Why the per-step MFU panel is empty: what it needs and the run lacks (report.unknowns), named as the
    caller knows the options. A stable window is not among them: the per-step MFU needs none."""
    needs = [u.text() for u in mfu_blockers(s) if u.what != "stable_window"]
    return "; ".join(needs) if needs else "no throughput in the log"


def _device_and_peak(hw: HardwarePart) -> str:
    """The device, the dtype and the dense peak, each beside its own source: `h100-sxm (--hw h100), bf16
    (log): dense peak 989 TFLOPS/GPU (hardware table)`; a peak given as a number names no device."""
    dtype = f"{hw['dtype']} ({hw['dtype_source']})"
    source = hw["peak_source"] or ""
    given = "peak_tflops" in source or "peak-tflops" in source  # the option's; else the device's in the table
    peak = f"dense peak {hw['peak_tflops_per_gpu']:g} TFLOPS/GPU ({source if given else 'hardware table'})"
    if hw["name"] in (None, "custom"):  # --peak-tflops alone
        return f"{peak}, {dtype}"
    named = "named in the log" if hw["name_source"] == "log" else hw["name_detail"] or hw["name_source"]
    return f"{hw['name']} ({named}), {dtype}: {peak}"


# a run timed by its logged throughput alone: no step time, yet a stable window
STEP_TIME_NONE = Unknown("step_time", "step time", phrase="step time: none in the log")
# what FLOPs counted per sample (or given per token) do not need
NO_PARAMS = Unknown("params", "N", phrase="N not needed")
NO_SEQ = Unknown("seq_len", "seq len", phrase="seq len not needed")


def _flops_text(s: Summary, unknown: dict[str, Unknown]) -> str:
    """The FLOPs MFU counts with: per token (the formula), or per sample for a run that counts samples."""
    samples = s.get("samples")
    if samples is not None and samples["flops_per_sample"] is not None:
        return f"{samples['flops_per_sample']:.3e} FLOPs/sample ({samples['flops_per_sample_source']})"
    tokens = (
        f"formula {s['formula']} = {s['flops_per_token']:.3e} FLOPs/token"
        if s["flops_per_token"]
        else unknown["flops_per_token"].text()
    )
    return tokens if samples is None else f"{unknown['flops_per_sample'].text()}; {tokens}"


def _assumptions(s: Summary) -> str:
    """The figures MFU rests on and where each came from; an unknown one says what to pass."""
    hw, m, unknown = s["hardware"], s["model"], unknowns(s)
    peak = hw["peak_tflops_per_gpu"]
    seq_source = s["facts"].get("seq_len", {}).get("source", "?")
    parts = [
        f"GPUs {s['gpus']} ({s['gpus_source']})" if s["gpus"] is not None else unknown["gpus"].text(),
        _device_and_peak(hw)
        if peak is not None
        else f"{unknown['hardware'].text()}, {hw['dtype']} ({hw['dtype_source']})",
        _flops_text(s, unknown),
        f"N {m['params']:.4g} ({m['source']})" if m["params"] else unknown.get("params", NO_PARAMS).text(),
        f"seq len {m['seq_len']} ({seq_source})" if m["seq_len"] else unknown.get("seq_len", NO_SEQ).text(),
        f"recompute {s['recompute']}"
        + (f" (HFU: {s['hfu_convention'].split(':')[0]})" if s["recompute"] != "none" else ""),
        f"step time: {s['steps']['step_time_source']}"
        if s["steps"]["step_time_source"]
        else unknown.get("step_time", STEP_TIME_NONE).text(),
    ]
    if s["stable"]["start_step"] is not None:  # how the stable figures average, when there are any
        parts.append(f"stable = {s['stable'].get('averaging', '')}")
    if s["warnings"]:
        parts.append(f"{len(s['warnings'])} warning(s) in summary.json")
    return "assumptions: " + "; ".join(parts)
