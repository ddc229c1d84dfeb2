"""report.png, read from the figure's artists: the stable MFU label clear of the curves and the
legend, one legend entry per kind of event, values beyond an axis marked with their value, long runs'
envelopes named, and the step-time axis from 0 like MFU's."""

from __future__ import annotations

import functools
import re
from collections import Counter

import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

import logparse
from logparse.report import plots

from . import synth
from .conftest import ROOT, SAMPLES

LOGS = sorted(p.name for p in SAMPLES.glob("*.log"))
DPI = 50  # the geometry scales with the dpi (sizes are in points); a small canvas draws fast
NCCL_TIMEOUT = (
    "[E ProcessGroupNCCL.cpp:475] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=42, "
    "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800512 milliseconds before "
    "timing out."
)


def options(name: str) -> dict:
    """What the sample's capture implies: 8 GPUs of the hardware its name says; CPU runs get nothing."""
    if "8xh100" in name:
        return {"gpus": 8, "hw": "h100"}
    if "8xa100" in name:
        return {"gpus": 8, "hw": "a100"}
    return {}


@functools.cache
def sample_report(name: str):
    a = logparse.analyze(SAMPLES / name, **options(name))
    fig = plots.build_report(a, dpi=DPI)
    fig.canvas.draw()
    return a, fig


def drawn(path, dpi: float = DPI, **opts):
    a = logparse.analyze(path, **opts)
    fig = plots.build_report(a, dpi=dpi)
    fig.canvas.draw()
    return a, fig


# ------------------------------------------------------------------------------------------------
# reading the figure


def panel(fig, kind: str):
    found = [ax for ax in fig.axes if ax.get_gid() == f"panel:{kind}"]
    return found[0] if found else None


def with_gid(fig, gid: str) -> list:
    return [a for ax in fig.axes for a in ax.get_children() if a.get_gid() == gid]


def legend_entries(fig) -> Counter:
    """Legend labels without their trailing count ("checkpoint save (5)" -> "checkpoint save")."""
    assert len(fig.legends) == 1, "one combined legend"
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    return Counter(re.sub(r" \(\d+\)$", "", t) for t in texts)


def label_box(fig) -> Bbox | None:
    """The stable label as drawn: its text and its rounded frame."""
    labels = with_gid(fig, "stable-label")
    if not labels:
        return None
    (label,) = labels
    return Bbox.union([label.get_window_extent(), label.get_bbox_patch().get_window_extent()])


def dense(xy: np.ndarray, step: float = 0.5) -> np.ndarray:
    """The points of a polyline every `step` pixels along each segment (NaN breaks it), vertices included."""
    out = [xy[np.isfinite(xy).all(axis=1)]]
    for p, q in zip(xy[:-1], xy[1:], strict=True):
        if not (np.isfinite(p).all() and np.isfinite(q).all()):
            continue
        n = int(np.hypot(*(q - p)) / step) + 2
        out.append(p + np.linspace(0, 1, n)[:, None] * (q - p))
    return np.concatenate(out) if out else np.empty((0, 2))


def inside(points: np.ndarray, box: Bbox, grow: float = 0.0) -> np.ndarray:
    return (
        (points[:, 0] >= box.x0 - grow)
        & (points[:, 0] <= box.x1 + grow)
        & (points[:, 1] >= box.y0 - grow)
        & (points[:, 1] <= box.y1 + grow)
    )


def what_the_label_covers(fig) -> list[str]:
    """The plotted things of the MFU panel that the stable label's box touches: the curve (its segments,
    densely, and its markers), the min-max envelope (outline and fill) and the stable mean line."""
    box = label_box(fig)
    ax = panel(fig, "mfu")
    covered = []
    for line in ax.lines:
        if line.get_gid() != "curve":
            continue
        xy = line.get_transform().transform(line.get_xydata())
        points = dense(xy)
        points = points[inside(points, ax.bbox)]  # what the axes clip is not drawn
        if inside(points, box, grow=line.get_linewidth() / 2).any():
            covered.append("curve")
        radius = line.get_markersize() / 2 if line.get_marker() not in (None, "None", "none") else 0
        if radius and inside(xy[np.isfinite(xy).all(axis=1)], box, grow=radius).any():
            covered.append("curve's markers")
    for coll in ax.collections:
        if coll.get_gid() == "envelope":
            for path in coll.get_paths():
                shown = path.transformed(coll.get_transform())
                outline = dense(shown.vertices)
                grid = np.array(
                    [(x, y) for x in np.linspace(box.x0, box.x1, 25) for y in np.linspace(box.y0, box.y1, 6)]
                )
                if inside(outline, box).any() or shown.contains_points(grid).any():
                    covered.append("envelope")
        if coll.get_gid() == "stable-line":
            for seg in coll.get_segments():
                if inside(dense(coll.get_transform().transform(seg)), box, grow=1).any():
                    covered.append("stable mean line")
    return covered


def off_axis(fig, a) -> dict[str, np.ndarray]:
    """Per percentile-scaled panel, the steps whose value lies beyond the panel's final y limits."""
    steps = a.run.steps
    columns = {"mfu": ["mfu"], "tps": ["tokens_per_s_per_gpu", "tokens_per_s"], "time": ["step_time_s"]}
    out = {}
    for kind, cols in columns.items():
        ax = panel(fig, kind)
        col = next((c for c in cols if c in steps and steps[c].notna().any()), None)
        if ax is None or col is None:
            continue
        y = steps[col].to_numpy(dtype=float) * (100 if kind == "mfu" else 1)
        lo, hi = ax.get_ylim()
        beyond = np.isfinite(y) & ((y > hi) | (y < lo))
        out[kind] = steps["step"].to_numpy(dtype=float)[beyond]
    return out


DIP_PRIORITY = [  # what a dip is said to be near when several kinds of event line are
    ("error", "dip near an error"),
    ("checkpoint_save", "dip near checkpoint save"),
    ("checkpoint_load", "dip near checkpoint load"),
    ("eval", "dip near eval"),
    ("overflow", "dip near skipped step"),
]


def expected_entries(a, fig) -> set[str]:
    """The legend the analysis calls for, worked out from the analysis itself (events, summary, steps)."""
    s, steps, events = a.summary, a.run.steps, a.run.parsed.events
    want = {"stable window"} if s["stable"]["start_step"] is not None else set()  # none found, none drawn
    if s["warmup_steps"]:
        want.add("warmup")
    if s.get("shifts"):
        want.add(f"shifts ({len(s['shifts'])}), other regimes shaded")
    kinds = set(events["event"]) if not events.empty else set()
    for kind in ("checkpoint_save", "checkpoint_load", "eval"):
        if kind in kinds:
            want.add(plots.EVENT_STYLES[kind].label)
    if "error" in kinds:
        errors = events[events["event"] == "error"]
        nccl = errors["pattern"].isin(["common.nccl", "common.nccl_watchdog_timeout"])
        if nccl.any():
            want.add(plots.EVENT_STYLES["nccl_error"].label)
        if not nccl.all():
            want.add(plots.EVENT_STYLES["error"].label)
    flagged = s.get("flagged_steps") or {}
    if flagged.get("nonfinite_loss") or ("nan_iters" in steps and (steps["nan_iters"] > 0).any()):
        want.add(plots.EVENT_STYLES["nonfinite_loss"].label)
    if flagged.get("nonfinite_grad_norm"):
        want.add(plots.EVENT_STYLES["nonfinite_grad_norm"].label)
    skipped = "overflow" in kinds or ("skipped_iters" in steps and (steps["skipped_iters"] > 0).any())
    if "skipped_total" in steps:
        total = pd.to_numeric(steps.sort_values("line")["skipped_total"], errors="coerce")
        skipped |= bool((total.diff().fillna(total) > 0).any())
    if skipped:
        want.add(plots.EVENT_STYLES["skipped"].label)
    if s["restarts"]:
        want.add(plots.EVENT_STYLES["restart"].label)
    for d in s["dips"]:
        near = {e["event"] for e in d["near_events"]}
        causes = [label for kind, label in DIP_PRIORITY if kind in near]
        want.add(causes[0] if causes else "dip near another event line" if near else "dip, no event nearby")
    if any(len(v) for v in off_axis(fig, a).values()):
        want.add(plots.CLIPPED_LABEL)
    if len(steps) > plots.ENVELOPE_ABOVE:
        want.add(f"min-max per {len(steps) / plots.ENVELOPE_BINS:.0f} steps, line: mean")
    return want


def check_label(fig) -> None:
    box = label_box(fig)
    assert box is not None
    assert what_the_label_covers(fig) == []
    assert not box.overlaps(fig.legends[0].get_window_extent()), "the label covers the legend"
    assert panel(fig, "mfu").bbox.contains(box.x0, box.y0) and panel(fig, "mfu").bbox.contains(box.x1, box.y1)


def check_legend(a, fig) -> None:
    entries = legend_entries(fig)
    assert {k: n for k, n in entries.items() if n != 1} == {}, "one entry per kind"
    assert set(entries) == expected_entries(a, fig)
    for ax in fig.axes:
        assert not ax.bbox.overlaps(fig.legends[0].get_window_extent()), "the legend hides a panel"


# ------------------------------------------------------------------------------------------------
# every sample log


@pytest.mark.parametrize("name", LOGS)
def test_the_stable_label_covers_no_curve_and_not_the_legend(name):
    a, fig = sample_report(name)
    if a.summary["stable"]["mfu_mean"] is None:
        assert label_box(fig) is None  # nothing to label: the MFU panel says what is missing
        return
    check_label(fig)


@pytest.mark.parametrize("name", LOGS)
def test_each_kind_of_event_has_one_legend_entry_and_its_marks(name):
    a, fig = sample_report(name)
    check_legend(a, fig)
    # each event kind in the legend is drawn in the lane
    lane_kinds = {
        g.get_gid()[len("event:") :]
        for ax in fig.axes
        for g in ax.lines
        if str(g.get_gid()).startswith("event:")
    }
    labels = {plots.style_of(k).label for k in lane_kinds}
    event_labels = {st.label for st in [*plots.EVENT_STYLES.values(), *plots.DIP_STYLES.values()]}
    assert set(legend_entries(fig)) & event_labels == labels
    # and every value beyond an axis has its mark at the edge
    for kind, beyond in off_axis(fig, a).items():
        marks = [ln for ln in panel(fig, kind).lines if ln.get_gid() == "clipped"]
        shown = np.concatenate([ln.get_xdata() for ln in marks]) if marks else np.array([])
        assert set(beyond) <= set(shown), kind


def test_every_sample_is_analyzed_with_the_options_its_name_implies():
    """A sample named otherwise would be analyzed blind; and enough samples have a stable MFU label for the
    label test to mean something."""
    assert LOGS and all(("8xh100" in n) or ("8xa100" in n) or ("_cpu" in n) for n in LOGS)
    assert sum(sample_report(n)[0].summary["stable"]["mfu_mean"] is not None for n in LOGS) >= 8


def test_checkpoint_saves_are_one_mark_per_save_drawn_above_the_grid():
    """Megatron writes two lines per save ("saving checkpoint at iteration 300", "successfully saved
    checkpoint from iteration 300"): one mark each, on the 100-step gridlines yet visible."""
    a, fig = sample_report("megatron_llama2-7b_8xh100.log")
    ev = a.run.parsed.events
    saves = ev[ev["event"] == "checkpoint_save"]
    assert len(saves) == 2 * saves["step"].nunique()
    (lane_marks,) = with_gid(fig, "event:checkpoint_save")
    assert list(lane_marks.get_xdata()) == sorted(saves["step"].unique())
    lines = [c for c in with_gid(fig, "vline:checkpoint_save") if isinstance(c, LineCollection)]
    assert len(lines) == len([ax for ax in fig.axes if str(ax.get_gid()).startswith("panel:")])
    axis = panel(fig, "mfu").xaxis  # gridlines are drawn with their axis, at its zorder
    grid = axis.get_gridlines()[0]
    for c in lines:
        assert c.get_zorder() > axis.get_zorder() and c.get_alpha() >= 0.5
        assert to_rgb(c.get_colors()[0]) != to_rgb(grid.get_color())


def test_event_lines_without_a_step_sit_between_the_steps_around_them():
    """HF prints its eval blocks with no step: every 10 steps here, so each sits just after a tenth step;
    the NCCL timeout before a restart sits at the step the run died after, not where it resumed."""
    a, fig = sample_report("hf_trainer_ls5_ga3_eval10_cpu.log")
    (evals,) = with_gid(fig, "event:eval")
    x = np.asarray(evals.get_xdata())
    assert len(x) == 5 and np.all((x % 10 >= 0) & (x % 10 < 1)) and np.all(x >= 10)
    a, fig = sample_report("megatron_resumed_8xh100.log")
    (nccl,) = with_gid(fig, "event:nccl_error")
    assert list(nccl.get_xdata()) == [a.summary["restarts"][0]["at_step"]]


def test_a_block_of_event_lines_between_two_steps_is_one_mark():
    """NeMo prints a validation as five progress lines between two logged steps: one eval, one mark."""
    a, fig = sample_report("nemo2_llama2-7b_8xh100.log")
    ev = a.run.parsed.events
    blocks = ev[(ev["event"] == "eval") & ev["text"].str.contains(r"iteration 1/", regex=False)]
    (evals,) = with_gid(fig, "event:eval")
    assert len(evals.get_xdata()) == len(blocks) < (ev["event"] == "eval").sum()
    assert legend_entries(fig)["eval"] == 1
    assert f"eval ({len(blocks)})" in [t.get_text() for t in fig.legends[0].get_texts()]


# ------------------------------------------------------------------------------------------------
# synthetic logs


def test_a_nan_loss_an_nccl_timeout_and_a_skipped_step_get_marks_and_legend_entries(write_log):
    text, _ = synth.megatron_log(synth.Spec(steps=120, save_interval=50, seed=5))
    lines = []
    for line in text.splitlines():
        if " iteration       70/" in line:
            line = re.sub(r"lm loss: [^|]+\|", "lm loss: NAN |", line)
        if " iteration       30/" in line:
            line = line.replace("number of skipped iterations:   0", "number of skipped iterations:   1")
        lines.append(line)
        if " iteration       90/" in line:
            lines.append(NCCL_TIMEOUT)
    a, fig = drawn(write_log("\n".join(lines) + "\n"), gpus=8, hw="h100")
    assert a.summary["status"] != "diverged"  # the steps after 70 log a finite loss again
    entries = legend_entries(fig)
    assert entries["NaN/inf loss"] == 1 and entries["NCCL / communication error"] == 1
    assert entries["skipped step (overflow)"] == 1
    (skipped,) = with_gid(fig, "event:skipped")
    assert list(skipped.get_xdata()) == [30]
    (nan,) = with_gid(fig, "event:nonfinite_loss")
    (nccl,) = with_gid(fig, "event:nccl_error")
    assert list(nan.get_xdata()) == [70]
    assert 90 <= nccl.get_xdata()[0] <= 91  # the line has no step: between steps 90's and 91's lines
    assert with_gid(fig, "vline:nccl_error") and with_gid(fig, "vline:nonfinite_loss")
    check_legend(a, fig)
    check_label(fig)


def test_a_slow_first_step_is_marked_at_the_top_edge_with_its_value(write_log):
    text, _ = synth.megatron_log(synth.Spec(steps=200, first_step_factor=0.01, seed=4))
    a, fig = drawn(write_log(text), gpus=8, hw="h100")
    first = float(a.run.steps["step_time_s"].iloc[0])
    ax = panel(fig, "time")
    bottom, top = ax.get_ylim()
    assert bottom == 0 and first > 10 * top  # the axis shows the run, not its first step
    (mark,) = [ln for ln in ax.lines if ln.get_gid() == "clipped"]
    assert list(mark.get_xdata()) == [1] and list(mark.get_ydata()) == [top] and mark.get_marker() == "^"
    values = [t for t in ax.texts if t.get_gid() == "clipped-value"]
    assert len(values) == 1 and values[0].xy == (1, top)
    number = re.fullmatch(r"([\d,.]+) s", values[0].get_text())
    assert number and float(number.group(1).replace(",", "")) == pytest.approx(first, rel=0.01)
    assert legend_entries(fig)[plots.CLIPPED_LABEL] == 1


def test_a_30k_step_run_names_its_envelope_and_scales_honestly(write_log, tmp_path):
    # its render time is measured in benchmarks/bench_report.py, not here (a loaded machine is not a slow figure)
    spec = synth.Spec(steps=30_000, save_interval=1000, warmup=200, seed=3, dips=[synth.Dip(20_500, 1, 0.3)])
    text, _ = synth.megatron_log(spec)
    a = logparse.analyze(write_log(text), gpus=8, hw="h100")
    plots.plot_report(a, tmp_path / "report.png")
    assert (tmp_path / "report.png").stat().st_size > 0
    fig = plots.build_report(a, dpi=DPI)
    fig.canvas.draw()
    assert legend_entries(fig)["min-max per 20 steps, line: mean"] == 1
    check_legend(a, fig)
    check_label(fig)
    # MFU, tokens/s and step time all from 0: noise looks as small in step time as in MFU
    assert [panel(fig, k).get_ylim()[0] for k in ("mfu", "tps", "time")] == [0, 0, 0]
    # the one-step dip is still drawn: the MFU envelope's lower edge reaches it
    (dip,) = [d for d in a.summary["dips"] if d["start_step"] == 20_500]
    band = [c for c in panel(fig, "mfu").collections if c.get_gid() == "envelope"][0]
    v = band.get_paths()[0].vertices
    assert v[np.abs(v[:, 0] - 20_500) < 20, 1].min() == pytest.approx(dip["min_mfu"] * 100, rel=0.01)


def test_the_label_leaves_a_corner_the_data_reaches(write_log):
    """Three steps timed too short near the end (an MFU above 100%: flagged, clipped at the top edge with
    their value) take the top right corner; the label goes where the curve is not."""
    text, _ = synth.megatron_log(synth.Spec(steps=200, seed=21))
    lines = []
    for line in text.splitlines():
        m = re.search(r" iteration\s+(\d+)/.*elapsed time per iteration \(ms\): ([\d.]+)", line)
        if m and int(m.group(1)) in (188, 189, 190):
            line = line.replace(f"(ms): {m.group(2)}", f"(ms): {float(m.group(2)) / 2.2:.1f}")
        lines.append(line)
    a, fig = drawn(write_log("\n".join(lines) + "\n"), gpus=8, hw="h100")
    assert a.summary["flagged_steps"].get("mfu_above_100")
    ax = panel(fig, "mfu")
    (mark,) = [ln for ln in ax.lines if ln.get_gid() == "clipped"]
    assert {188, 189, 190} & set(mark.get_xdata())
    check_label(fig)
    assert label_box(fig).x1 < ax.bbox.x0 + 0.5 * ax.bbox.width  # not in the right half any more
    check_legend(a, fig)


def test_with_no_free_place_the_label_gets_headroom_above_the_curve():
    """A curve that fills its panel: the top limit grows until the label sits above the data."""
    fig = Figure(figsize=(8, 2), dpi=DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    x = np.arange(400.0)
    ax.plot(x, np.where(x % 2, 0.0, 50.0), gid="curve")  # a zigzag from the bottom to the top, everywhere
    ax.set_xlim(0, 399)
    ax.set_ylim(0, 50)
    label = ax.text(0, 0, "stable MFU 45.0%", transform=ax.transAxes, fontsize=10, gid="stable-label")
    label.set_bbox({"boxstyle": "round"})
    fig.gca().set_gid("panel:mfu")
    plots._place_label(ax, label, fig.canvas.get_renderer(), lambda: [])
    fig.legend([], [])
    fig.canvas.draw()
    assert ax.get_ylim()[1] > 50
    assert what_the_label_covers(fig) == []
    assert label_box(fig).y0 > ax.transData.transform((0, 50))[1]


def test_written_reports_hold_one_renderer_between_them_without_the_collector(tmp_path, monkeypatch):
    """report.png written, the figure's Agg renderer (its pixels) is held by nothing but the spare slot that
    the next report of its size takes it from: the cyclic collector, which frees the figures, counts objects
    and not bytes, and a batch worker held a hundred reports' pixels. Three reports of one size make two
    renderers between them: the one the first was laid out with, at its first size, and the one it was drawn
    with."""
    import gc
    import sys

    made = []
    real = FigureCanvasAgg.get_renderer

    def spy(self):
        renderer = real(self)
        if not any(r is renderer for r in made):
            made.append(renderer)
        return renderer

    monkeypatch.setattr(FigureCanvasAgg, "get_renderer", spy)
    monkeypatch.setattr(plots, "_SPARE", {})
    a = logparse.analyze(str(SAMPLES / "megatron_llama2-7b_8xh100.log"), gpus=8, hw="h100")
    gc.disable()
    try:
        for i in range(3):
            plots.plot_report(a, tmp_path / f"report{i}.png", thumb=tmp_path / f"thumb{i}.png")
        assert len(made) == 2  # the second and third took the first's
        assert sorted(map(id, plots._SPARE.values())) == sorted(map(id, made))
        assert all(sys.getrefcount(r) == 4 for r in made)  # the list, the slot, the loop's name, the argument
    finally:
        gc.enable()
    assert (tmp_path / "report0.png").stat().st_size > 50_000 and (tmp_path / "thumb0.png").stat().st_size > 0


_DATA = ROOT / "tests" / "data"


@pytest.mark.parametrize(
    "runs",
    [
        # the MFU panel: the framework's own in its colour with its own axis label; none, its ticks taken
        # away; logparse's, with its stable label
        {
            SAMPLES / "hf_trainer_ga4_cpu.log": {},
            SAMPLES / "composer_mb_cpu.log": {},
            SAMPLES / "composer_llama2-7b_8xh100.log": {"gpus": 8, "hw": "h100"},
        },
        # a panel whose limits were set (step time) under one whose limits come from its data (loss)
        {
            _DATA / "peers" / "dgxc" / "llmb_nemo_scientific.log": {},
            _DATA / "captures" / "hf" / "hf_notqdm_first3_ga2.log": {},
        },
    ],
    ids=["mfu-panels", "autoscaled-after-set"],
)
def test_a_report_drawn_on_an_earlier_reports_axes_has_the_pixels_of_one_drawn_fresh(
    tmp_path, monkeypatch, runs
):
    """A written report's figure is wiped and kept for the next report of its layout (plots._Skeleton: a
    batch's worker draws hundreds). Logs of one layout whose panels differ, each drawn after the others in
    both orders, give the images each drawn on a figure of its own."""
    from PIL import Image

    taken = []
    real = plots._Skeleton.take.__func__

    def take(cls, layout):
        got = real(cls, layout)
        taken.append(got is not None)
        return got

    monkeypatch.setattr(plots._Skeleton, "_kept", {})
    monkeypatch.setattr(plots._Skeleton, "take", classmethod(take))
    analyses = {log.stem: logparse.analyze(str(log), **kw) for log, kw in runs.items()}

    def drawn(name, tag):
        plots.plot_report(analyses[name], tmp_path / f"{tag}.png")
        return np.asarray(Image.open(tmp_path / f"{tag}.png").convert("RGB"))

    fresh = {}
    for name in analyses:
        plots._Skeleton._kept.clear()
        fresh[name] = drawn(name, f"fresh-{name}")
    assert taken == [False] * len(analyses)
    order = [*analyses, *reversed(analyses)]
    for i, name in enumerate(order):
        assert np.array_equal(drawn(name, f"again{i}-{name}"), fresh[name]), name
    # every one of them drawn on the figure the one before left (one layout: the same axes)
    assert taken[len(analyses) :] == [True] * len(order)


def test_a_report_drawn_on_another_reports_renderers_has_the_pixels_of_one_drawn_fresh(tmp_path, monkeypatch):
    """Renderers handed from report to report (plots._ReportCanvas) are cleared before each draw: two
    samples' reports of one size, each drawn on the renderers the other gave back, are the same images as
    each drawn on renderers of its own."""
    from PIL import Image

    def drawn(analysis, name, fresh):
        if fresh:
            plots._SPARE.clear()
        plots.plot_report(analysis, tmp_path / name)
        return np.asarray(Image.open(tmp_path / name).convert("RGB"))

    monkeypatch.setattr(plots, "_SPARE", {})
    a = logparse.analyze(str(SAMPLES / "maxtext_llama2-7b_8xh100.log"), gpus=8, hw="h100")
    b = logparse.analyze(str(SAMPLES / "nanotron_llama2-7b_8xh100.log"), gpus=8, hw="h100")
    a_fresh, b_fresh = drawn(a, "a.png", True), drawn(b, "b.png", True)
    assert a_fresh.shape == b_fresh.shape and not np.array_equal(a_fresh, b_fresh)
    spares = list(plots._SPARE.values())
    a_again = drawn(a, "a2.png", False)
    assert sorted(map(id, plots._SPARE.values())) == sorted(map(id, spares))  # drawn on b's, given back
    assert np.array_equal(a_again, a_fresh)
    assert np.array_equal(drawn(b, "b2.png", False), b_fresh)


def test_reports_drawn_with_kept_glyphs_have_the_pixels_of_matplotlibs_own_text(tmp_path, monkeypatch):
    """The report's renderer keeps each text's layout and each glyph's bitmap and blits it again
    (glyphs.GlyphRenderer, matplotlib 3.11's glyph-by-glyph text): samples of several frameworks, each drawn
    after the others with both kept (so most are another report's), are the images matplotlib's RendererAgg
    draws."""
    from PIL import Image

    from logparse.report import glyphs

    if not glyphs.CACHING:
        pytest.skip(f"matplotlib {matplotlib.__version__} does not draw text glyph by glyph")
    names = [
        "megatron_llama2-7b_8xh100.log",
        "hf_trainer_ga4_cpu.log",
        "deepspeed_ga8_8xa100.log",
        "nanogpt_gpt2_8xa100.log",
    ]
    analyses = {name: logparse.analyze(str(SAMPLES / name), **options(name)) for name in names}

    def drawn(name, caching):
        monkeypatch.setattr(glyphs, "CACHING", caching)
        plots._SPARE.clear()
        plots.plot_report(analyses[name], tmp_path / f"{name}-{caching}.png")
        return np.asarray(Image.open(tmp_path / f"{name}-{caching}.png").convert("RGB"))

    monkeypatch.setattr(plots, "_SPARE", {})
    monkeypatch.setattr(glyphs.GlyphRenderer, "_kept", {})
    monkeypatch.setattr(glyphs.GlyphRenderer, "_layouts", {})
    stock = {name: drawn(name, False) for name in names}
    for name in [*names, *reversed(names)]:
        assert np.array_equal(drawn(name, True), stock[name]), name
    assert len(glyphs.GlyphRenderer._kept) > 100 and len(glyphs.GlyphRenderer._layouts) > 50


@pytest.mark.parametrize(
    "name", ["megatron_llama2-7b_8xh100.log", "hf_trainer_ga4_cpu.log", "nanogpt_gpt2_8xa100.log"]
)
def test_the_axes_make_no_tick_beyond_their_limits_and_draw_the_ticks_matplotlib_would(name, monkeypatch):
    """plots._InView: matplotlib's default locator places a location beyond each view limit, for which the
    axis makes a tick it does not draw; the report's axes make none, and draw the same ticks with the same
    labels as with matplotlib's own locator."""
    from matplotlib.ticker import AutoLocator

    def ticks(fig):
        """Per axes and axis: the drawn ticks' (location, label), and the locations of every tick made."""
        drawn, made = [], []
        for ax in fig.axes:
            for axis in (ax.xaxis, ax.yaxis):
                shown = axis._update_ticks()  # the ticks Axis.draw draws
                drawn.append([(t.get_loc(), t.label1.get_text(), t.label1.get_visible()) for t in shown])
                low, high = sorted(axis.get_view_interval())
                made.append([loc for loc in axis.get_majorticklocs() if not low <= loc <= high])
        return drawn, made

    a = logparse.analyze(SAMPLES / name, **options(name))
    fig = plots.build_report(a, dpi=DPI)
    fig.canvas.draw()
    drawn, beyond = ticks(fig)
    monkeypatch.setattr(plots, "_InView", AutoLocator)
    fig = plots.build_report(a, dpi=DPI)
    fig.canvas.draw()
    drawn_before, beyond_before = ticks(fig)
    assert drawn == drawn_before and sum(map(len, drawn)) > 20
    assert not any(beyond) and any(beyond_before)  # matplotlib's own does place some beyond


def test_envelope_is_each_bins_min_mean_and_max_ignoring_nans():
    from logparse.report.plots import envelope

    rng = np.random.default_rng(7)
    x = np.cumsum(rng.integers(1, 4, 9_001)).astype(float)
    y = rng.normal(40, 5, len(x))
    y[rng.random(len(x)) < 0.1] = np.nan
    y[3000:3020] = np.nan  # a whole bin of nothing
    xs, lo, mean, hi = envelope(x, y, bins=450)
    edges = np.linspace(0, len(x), 451).astype(int)
    for k, (a, b) in enumerate(zip(edges[:-1], edges[1:], strict=True)):
        ok = y[a:b][np.isfinite(y[a:b])]
        assert xs[k] == pytest.approx(x[a:b].mean(), rel=1e-12)
        if len(ok):
            assert (lo[k], hi[k]) == (ok.min(), ok.max()) and mean[k] == pytest.approx(ok.mean(), rel=1e-12)
        else:
            assert np.isnan(lo[k]) and np.isnan(mean[k]) and np.isnan(hi[k])


def test_a_lane_of_many_marks_draws_one_per_quarter_pixel_and_counts_them_all():
    from logparse.report.plots import DPI, WIDTH_IN, _thinned

    steps = np.arange(1, 2_000_001, dtype=float)
    saves = steps[::8]  # 250,000 saves
    kept = _thinned(saves, steps)
    quarter = (steps[-1] - steps[0]) / (WIDTH_IN * DPI * 4)
    assert 4000 < len(kept) < len(saves) and set(kept) <= set(saves)
    # every mark left out lies within a quarter of a pixel after one drawn
    at = np.searchsorted(kept, saves, side="right") - 1
    assert (saves - kept[at]).max() < quarter
    few = steps[::1000]
    assert _thinned(few, steps) is few  # a lane of a few thousand marks is drawn as it is


@pytest.mark.parametrize("n", [1, 2, 3, 7, 199, 200, 201, 1000, 12_345])
def test_the_y_axis_percentiles_are_numpys(n):
    from logparse.report.plots import _ranked

    values = np.random.default_rng(n).normal(40, 5, n)
    assert _ranked(values, 0.5, 99.5) == (
        np.percentile(values, 0.5, method="higher"),
        np.percentile(values, 99.5, method="lower"),
    )


def _ledger_text_names(a) -> list[str]:
    """The badput parts the text's ledger line names, in its order (`goodput 75% of 75 min: restart 10 min,
    redone steps 5 min, ...`)."""
    from logparse.report.ledger import ledger_lines

    line = ledger_lines(a.summary)[0]
    parts = line.split(": ", 1)[1].split(" (")[0].split(", ")
    return [re.sub(r" [\d.]+ (s|min|h|days)$", "", part) for part in parts]


@pytest.mark.parametrize("name", ["megatron_resumed_8xh100.log", "megatron_llama2-7b_8xh100.log"])
def test_the_ledger_bar_names_its_parts_in_the_texts_order(name):
    """The bar lays out productive time, then the parts in the order the text's ledger line names them; each
    part with room for its name (on one line or two) is named inside the bar, the others in the caption, in
    that same order. The resumed run's parts (restart 13%, redone steps 6%, warmup 6%) are all named."""
    from logparse.core.summary_types import LABELS

    a, fig = sample_report(name)
    (ax,) = [ax for ax in fig.axes if ax.get_gid() == "ledger"]
    bars = sorted((p for p in ax.patches if str(p.get_gid()).startswith("ledger:")), key=lambda p: p.get_x())
    keys = [p.get_gid()[len("ledger:") :] for p in bars]
    texts = _ledger_text_names(a)
    assert keys[0] == "productive" and [LABELS[k] for k in keys[1 : len(texts) + 1]] == texts
    named = [str(t.get_gid()) for t in ax.texts]
    labelled = {gid[len("ledger-label:") :] for gid in named if gid.startswith("ledger-label:")}
    caption = next(t.get_text() for t in ax.texts if t.get_text().startswith("where the wall time went"))
    also = caption.split("; also ", 1)[1].split(", ") if "; also " in caption else []
    also = [re.sub(r" (<)?[\d.]+%$", "", part) for part in also]
    assert also == [LABELS[k] for k in keys[1:] if k not in labelled and LABELS[k] in texts]
    wall = a.summary["goodput"]["wall_s"]
    big = [k for k, p in zip(keys, bars, strict=True) if p.get_width() / wall >= 0.05]
    assert set(big) <= labelled, (big, labelled)


def test_a_checkpoint_loaded_where_one_was_saved_shows_both_marks():
    """The resumed run loads the checkpoint saved at step 300: both marks sit in the checkpoints row at step
    300, apart by most of a mark's height, the load drawn over the save."""
    a, fig = sample_report("megatron_resumed_8xh100.log")
    (save,) = with_gid(fig, "event:checkpoint_save")
    (load,) = with_gid(fig, "event:checkpoint_load")
    assert 300 in list(save.get_xdata()) and list(load.get_xdata()) == [300]
    ax = save.axes
    at = list(save.get_xdata()).index(300)
    y_save = ax.transData.transform((300, save.get_ydata()[at]))[1]
    y_load = ax.transData.transform((300, load.get_ydata()[0]))[1]
    mark_px = save.get_markersize() * fig.dpi / 72
    assert abs(y_save - y_load) >= 0.75 * mark_px
    assert ax.lines.index(load) > ax.lines.index(save)
    row = ax.get_yticks()[[t.get_text() for t in ax.get_yticklabels()].index("checkpoints")]
    assert abs(save.get_ydata()[at] - row) < 0.5 and abs(load.get_ydata()[0] - row) < 0.5
