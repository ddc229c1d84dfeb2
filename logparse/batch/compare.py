"""Compare: several runs on one figure (one panel per metric) against step, tokens or wall time, with a
table of their stable figures beside it (CSV with the PNG's stem, and aligned text for the CLI)."""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..core.errors import LogparseError, UsageError
from ..core.naming import run_name, run_names, safe_name
from ..core.options import Given, checked
from ..core.summary_types import Summary
from ..read.runfolder import is_run_folder
from ..report import outputs as report
from ..report.pngfile import save_figure
from ..utilization.mfu import seconds_to_train

METRICS: dict[str, tuple[str, float]] = {
    # name -> (axis label, scale from the steps column to what is drawn)
    "mfu": ("MFU (%)", 100.0),
    "tokens_per_s_per_gpu": ("tokens/s per GPU", 1.0),
    "step_time_s": ("step time (s)", 1.0),
    "loss": ("loss", 1.0),
    "grad_norm": ("grad norm", 1.0),
    "lr": ("learning rate", 1.0),
}
DEFAULT_METRICS = ("mfu", "loss")
X_AXES = ("step", "tokens", "time")
TARGET_COLUMNS = ["target_tokens", "days_to_target", "days_to_target_change"]  # with --target-tokens
TABLE_COLUMNS = [
    "run",
    "hardware",
    "gpus",
    "mfu",
    "stable_window",
    "tokens_per_s_per_gpu",
    "step_time_s",
    "dip_lost_s",
    "restart_lost_s",
    "goodput",
    "wall_s",
    "mfu_change",
    "mfu_change_pt",
    "tokens_per_s_per_gpu_change",
    "step_time_s_change",
    "time_from",
    "notes",
    "source",
]


@dataclass
class ComparedRun:
    """One run to compare: where it came from, its steps frame and summary, and its label."""

    path: Path  # the log, or the run's output folder
    steps: pd.DataFrame
    summary: Summary
    label: str = ""


@dataclass
class Comparison:
    """What `compare_runs` drew and wrote."""

    table: pd.DataFrame
    # metric -> label -> frame with columns x (steps, tokens or seconds), raw, smoothed (drawn units)
    curves: dict[str, dict[str, pd.DataFrame]]
    # metric -> label -> the y values of the curve drawn in full colour, read back from the figure
    drawn: dict[str, dict[str, np.ndarray]]
    ylims: dict[str, tuple[float, float]]
    xlabel: str
    png: Path
    csv: Path
    missing: dict[str, list[str]] = field(default_factory=dict)  # metric -> labels left out
    references: dict[str, str | None] = field(default_factory=dict)  # change column -> its reference run
    figure: Any = None  # the matplotlib Figure drawn (closed in pyplot; its artists can still be read)


# ----------------------------------------------------------------------------------------------- loading


def _read_folder(path: Path) -> ComparedRun:
    summary_path, steps_path = path / "summary.json", path / "steps.csv"
    if not (summary_path.exists() and steps_path.exists()):
        raise LogparseError(
            f"{path}: a run folder needs summary.json and steps.csv (from `logparse analyze`)"
        )
    return ComparedRun(path, pd.read_csv(steps_path, low_memory=False), json.loads(summary_path.read_text()))


def _batch_runs(index_path: Path) -> list[Path]:
    """The run folders of a batch output: index.csv's rows with status ok."""
    index = pd.read_csv(index_path)
    if not {"run", "status"} <= set(index.columns):
        raise LogparseError(f"{index_path}: not a `logparse batch` index (needs run and status columns)")
    folders = []
    for _, row in index[index["status"] == "ok"].iterrows():
        here = index_path.parent / str(row["run"])
        out = Path(str(row["out"])) if "out" in index and isinstance(row["out"], str) else None
        folder = here if (here / "summary.json").exists() else out
        if folder is None or not (folder / "summary.json").exists():
            raise LogparseError(f"{index_path}: the folder of run {row['run']} is missing ({here})")
        folders.append(folder)
    if not folders:
        raise LogparseError(f"{index_path}: no run analyzed successfully (no row with status ok)")
    return folders


def expand(ref: str | os.PathLike[str]) -> list[Path]:
    """What a RUN argument stands for: a log, an `analyze` folder, a batch folder (its ok runs), an index.csv
    (the same) or a run folder (read/runfolder.py)."""
    path = Path(ref)
    if path.is_dir():
        if (path / "summary.json").exists():
            return [path]
        if (path / "index.csv").exists():
            return _batch_runs(path / "index.csv")
        if is_run_folder(path):  # a W&B run, an HF output dir, ...: analyzed like a log
            return [path]
        raise LogparseError(
            f"{ref}: neither an analyze output (summary.json + steps.csv), a batch folder (index.csv) nor a run "
            "folder logparse reads (W&B, Hugging Face, Lightning, TensorBoard)"
        )
    if path.name.lower().endswith(".csv"):
        if not path.exists():
            raise LogparseError(f"{ref}: no such file")
        return _batch_runs(path)
    if not path.exists():
        raise LogparseError(f"{ref}: no such file or folder")
    return [path]


def load_run(ref: str | os.PathLike[str], options: Given) -> ComparedRun:
    """One run: an output folder (summary.json + steps.csv) as written, or a log analyzed with `options`."""
    path = Path(ref)
    if path.is_dir() and (path / "summary.json").exists():
        return _read_folder(path)
    from .. import api

    a = api.analyze(str(path), **options)
    return ComparedRun(path, a.steps, a.summary)


def label_runs(paths: list[Path], labels: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The runs' labels: the run folder's name (a log's run name), told apart with naming.run_names where
    they clash; `labels` replace the first len(labels) of them, in order. A byte that is not UTF-8 in a
    folder's name or a label (argv decoded with surrogate escapes) is U+FFFD: neither matplotlib nor the
    table's string columns take a lone surrogate."""
    from ..report.plots import plain

    labels = [plain(label) for label in labels]
    if len(labels) > len(paths):
        raise UsageError(f"--label: {len(labels)} labels for {len(paths)} runs")
    if len(set(labels)) < len(labels):
        raise UsageError("--label: labels must differ")
    names = [safe_name(p.name) if p.is_dir() else run_name(p) for p in paths]
    if len(set(names)) < len(names):
        told = run_names(list(paths))
        names = [t if names.count(n) > 1 else n for n, t in zip(names, told, strict=True)]
    names[: len(labels)] = list(labels)
    seen: dict[str, int] = {}
    out = []
    for n in names:  # the same run given twice: a number after the second
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n}-{seen[n]}")
    return out


# ------------------------------------------------------------------------------------------- the curves


def smooth(values: Any, weight: float) -> np.ndarray:
    """TensorBoard's scalar smoothing: a debiased exponential moving average.

    s_t = w s_{t-1} + (1 - w) x_t from s = 0, divided by 1 - w^n (n = finite points so far), as in
    tensorflow/tensorboard tensorboard/components/vz_line_chart2/line-chart.ts, `resmoothDataset`.
    A non-finite point is skipped: it stays NaN and does not count. w = 0 gives the raw values."""
    x = np.asarray(values, dtype=float)
    if not 0 <= weight < 1:
        raise LogparseError(f"--smooth must be in [0, 1) (got {weight})")
    out = np.full_like(x, np.nan)
    last, n = 0.0, 0
    for i, v in enumerate(x):
        if not np.isfinite(v):
            continue
        last = last * weight + (1 - weight) * v
        n += 1
        out[i] = last / (1 - weight**n)
    return out


def _span(steps: pd.DataFrame) -> pd.Series:
    if "step_span" in steps:
        return steps["step_span"].fillna(1).clip(lower=1)
    return pd.Series(1.0, index=steps.index)


def _timestamps(steps: pd.DataFrame) -> pd.Series | None:
    if "timestamp" not in steps or steps["timestamp"].notna().sum() < 2:
        return None
    ts = steps["timestamp"]
    if not pd.api.types.is_numeric_dtype(ts):
        ts = pd.to_datetime(ts, utc=True, errors="coerce", format="mixed")
        ts = (ts - pd.Timestamp(0, tz="UTC")).dt.total_seconds()
    ts = ts.astype(float)
    if ts.notna().sum() < 2 or (ts.dropna().diff().dropna() < 0).any():
        return None  # an unreadable or non-monotonic clock: not a wall clock to plot against
    return ts.interpolate(limit_direction="both")


def time_axis(steps: pd.DataFrame) -> tuple[pd.Series, str]:
    """Wall seconds since the run started at the end of each row, and where they came from: the log's
    timestamps (restart gaps included), else cumulative step times (gaps not counted)."""
    st = steps["step_time_s"] * _span(steps) if "step_time_s" in steps else None
    ts = _timestamps(steps)
    if ts is not None:
        first = st.iloc[0] if st is not None and pd.notna(st.iloc[0]) else 0.0
        return ts - ts.iloc[0] + first, "timestamps (restart gaps included)"
    if st is None or st.isna().all():
        raise LogparseError("--x time needs timestamps or step times, and a run here has neither")
    return st.fillna(0).cumsum(), "cumulative step time (no timestamps: restart gaps not counted)"


def x_axis(steps: pd.DataFrame, summary: Summary, x: str) -> pd.Series:
    """The x values of each row: optimizer step, cumulative tokens (the run's own tokens per step, times
    the steps a row stands for) or wall seconds."""
    if x == "step":
        return steps["step"].astype(float)
    if x == "tokens":
        tps = steps["tokens_per_step"] if "tokens_per_step" in steps else pd.Series(np.nan, index=steps.index)
        if summary.get("tokens_per_step") is not None:
            tps = tps.fillna(float(summary["tokens_per_step"]))
        if tps.isna().all():
            raise LogparseError(
                f"--x tokens needs the tokens per step, and run {summary.get('run')} has none "
                "(pass --seq-len / --global-batch for logs without it)"
            )
        return (tps.fillna(0) * _span(steps)).cumsum()
    if x == "time":
        return time_axis(steps)[0]
    raise LogparseError(f"--x must be step, tokens or time (got {x!r})")


X_LABELS = {"step": "optimizer step", "tokens": "tokens (billions)", "time": "wall time (hours)"}
X_SCALE = {"step": 1.0, "tokens": 1e-9, "time": 1 / 3600}


def y_range(values: list[np.ndarray]) -> tuple[float, float] | None:
    """The 1st-99th percentile of the values drawn, padded by 8%: a first step or a spike does not set it."""
    v = np.concatenate([np.asarray(a, dtype=float) for a in values]) if values else np.array([])
    v = v[np.isfinite(v)]
    if v.size == 0:
        return None
    lo, hi = np.percentile(v, [1, 99])
    pad = (hi - lo) * 0.08 or (abs(hi) * 0.05 or 1.0)
    return float(lo - pad), float(hi + pad)


# ------------------------------------------------------------------------------------------- the table


def _rel(v: Any, ref: Any) -> float | None:
    if v is None or ref is None or not ref or _nan(v) or _nan(ref):
        return None
    return (float(v) - float(ref)) / float(ref)


def _nan(v: Any) -> bool:
    return isinstance(v, float) and math.isnan(v)


CHANGED = ("mfu", "tokens_per_s_per_gpu", "step_time_s")


def _lost(parts: Any) -> float:
    return float(sum(p.get("lost_s") or 0 for p in parts or []))


def table_rows(
    runs: list[ComparedRun],
    notes: dict[str, list[str]],
    target_tokens: float | None = None,
    x: str = "time",
    ref: str | None = None,
) -> pd.DataFrame:
    """One row per run from its summary; with `target_tokens`, the days each would take to train that
    many tokens at its stable cluster throughput (restarts, evals and checkpoints not counted). Each change
    is against `ref` (a run's label), else against the first run that has the figure; the table's `attrs`
    hold the reference of each change column. `time_from` is filled only for the time axis (`x`). `ref`
    names one of the runs (compare_runs checks it before drawing)."""
    rows = []
    for r in runs:
        s, st = r.summary, r.summary.get("stable") or {}
        time_from = None
        if x == "time":
            try:
                time_from = time_axis(r.steps)[1]
            except LogparseError:
                pass
        start, end = st.get("start_step"), st.get("end_step")
        rows.append(
            {
                "run": r.label,
                "hardware": (s.get("hardware") or {}).get("name"),
                "gpus": s.get("gpus"),
                "mfu": st.get("mfu_mean"),
                "stable_window": None if start is None else f"{start}..{end}",
                "tokens_per_s_per_gpu": st.get("tokens_per_s_per_gpu"),
                "step_time_s": st.get("step_time_s"),
                "dip_lost_s": _lost(s.get("dips")),
                # a restart's lost time (redone steps and the gap before the resume) is not a dip's
                "restart_lost_s": _lost(s.get("restarts")),
                # the share of the job's wall time its counted steps took (the goodput ledger; None without a clock)
                "goodput": (s.get("goodput") or {}).get("goodput"),
                "wall_s": (s.get("goodput") or {}).get("wall_s"),
                "time_from": time_from,
                "notes": "; ".join(notes.get(r.label, [])) or None,
                "source": str(r.path),
            }
        )
        if target_tokens is not None:
            seconds = seconds_to_train(target_tokens, st.get("tokens_per_s"))
            rows[-1]["target_tokens"] = target_tokens
            rows[-1]["days_to_target"] = None if seconds is None else seconds / 86400
    changes = CHANGED + (("days_to_target",) if target_tokens else ())
    references: dict[str, str | None] = {}
    for k in changes:
        # the chosen run, else the first run that has the figure: a run without it gives no reference
        base = (
            next((row for row in rows if row["run"] == ref), None)
            if ref is not None
            else next((row for row in rows if row[k] is not None and not _nan(row[k])), None)
        )
        references[k] = base["run"] if base is not None else None
        for row in rows:
            row[f"{k}_change"] = _rel(row[k], base[k]) if base is not None else None
            if k == "mfu":  # MFU is a fraction: its change in percentage points (45.0% -> 31.7% is -13.3 pt)
                row["mfu_change_pt"] = _points(row[k], base[k] if base is not None else None)
    columns = TABLE_COLUMNS + (TARGET_COLUMNS if target_tokens is not None else [])
    table = pd.DataFrame(rows).reindex(columns=columns)
    table.attrs["references"] = references
    return table


def _points(v: Any, ref: Any) -> float | None:
    if v is None or ref is None or _nan(v) or _nan(ref):
        return None
    return 100.0 * (float(v) - float(ref))


def format_table(table: pd.DataFrame) -> str:
    """The table as aligned text: MFU in percent and its change in percentage points, the other changes
    relative, each against its reference run (`table.attrs["references"]`, else the first run)."""
    refs = table.attrs.get("references") or {}
    runs = list(table["run"])

    def delta(col: str, values: Any, points: bool = False) -> list[str]:
        base = refs.get(col, runs[0])
        out = []
        for run, v in zip(runs, values, strict=True):
            if run == base:
                out.append("ref")
            elif points:
                out.append("n/a" if v is None or pd.isna(v) else f"{v:+.1f} pt")
            else:
                out.append(pct(v, True))
        return out

    def pct(v: Any, signed: bool = False) -> str:
        if v is None or pd.isna(v):
            return "n/a"
        return f"{v:+.1%}" if signed else f"{v:.1%}"

    def num(v: Any, fmt: str) -> str:
        return "n/a" if v is None or pd.isna(v) else format(v, fmt)

    out = pd.DataFrame(
        {
            "run": table["run"],
            "hardware": table["hardware"].fillna("?"),
            "GPUs": [num(v, ".0f") for v in table["gpus"]],
            "MFU": [pct(v) for v in table["mfu"]],
            "stable steps": table["stable_window"].fillna("n/a"),
            "tok/s/GPU": [num(v, ",.0f") for v in table["tokens_per_s_per_gpu"]],
            "step time s": [num(v, ".3f") for v in table["step_time_s"]],
            "dips lost s": [num(v, ".1f") for v in table["dip_lost_s"]],
            "restarts lost s": [num(v, ".1f") for v in table["restart_lost_s"]],
            "goodput": [pct(v) for v in table["goodput"]],
            "ΔMFU": delta("mfu", table["mfu_change_pt"], points=True),
            "Δtok/s/GPU": delta("tokens_per_s_per_gpu", table["tokens_per_s_per_gpu_change"]),
            "Δstep time": delta("step_time_s", table["step_time_s_change"]),
        }
    )
    if "days_to_target" in table:
        target = table["target_tokens"].iloc[0]
        out[f"days to {target:.3g} tok"] = [num(v, ".1f") for v in table["days_to_target"]]
        out["Δdays"] = delta("days_to_target", table["days_to_target_change"])
    text = out.to_string(index=False)
    extra = [f"{r}: {n}" for r, n in zip(table["run"], table["notes"], strict=True) if isinstance(n, str)]
    times = {t for t in table["time_from"] if isinstance(t, str)}
    lines = [text, *extra]
    named = {k: v for k, v in refs.items() if k in (*CHANGED, "days_to_target")}
    if named:
        chosen = set(named.values())
        if len(chosen) == 1:
            base = next(iter(chosen))
            lines.append(f"reference: {base}" if base else "reference: none (no run has the figures)")
        else:
            names = {
                "mfu": "MFU",
                "tokens_per_s_per_gpu": "tok/s/GPU",
                "step_time_s": "step time",
                "days_to_target": "days",
            }
            lines.append(
                "reference: "
                + "; ".join(f"{names[k]} {v or 'none (no run has it)'}" for k, v in named.items())
            )
    if times:
        lines.append("time axis from " + " / ".join(sorted(times)))
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------ compare


def compare_runs(
    refs: list[str | os.PathLike[str]],
    x: str = "step",
    output: str | os.PathLike[str] = "compare.png",
    options: Given | None = None,
    metrics: list[str] | tuple[str, ...] = (),
    smoothing: float = 0.6,
    labels: list[str] | tuple[str, ...] = (),
    ref: str | int | os.PathLike[str] | None = None,
) -> Comparison:
    """Overlay the runs' metrics (one panel each) against step, tokens or wall time; write the PNG and
    the table as CSV beside it (`compare.png` -> `compare.csv`). The table's changes are against `ref`
    (a run's label, a RUN as given, or its position in the table counted from 1; see `reference`), else
    against the first run that has the figure."""
    import matplotlib

    matplotlib.use("Agg")
    from ..report.plots import plain_text

    with plain_text():  # a `$` in a label is text, not mathtext
        return _compare(refs, x, output, options, metrics, smoothing, labels, ref)


def _compare(refs, x, output, options, metrics, smoothing, labels, ref=None) -> Comparison:
    import matplotlib.pyplot as plt

    from ..report.plots import PlainFigure

    metrics, target = _checked(x, metrics, smoothing, options)
    groups = [expand(r) for r in refs]
    paths = [p for group in groups for p in group]
    if not paths:
        raise LogparseError("no runs to compare")
    names = label_runs(paths, labels)
    # the reference is known before any log is analyzed, so a wrong one costs nothing
    chosen = None if ref is None else names[reference(ref, list(refs), groups, names)]
    runs = [load_run(p, options or {}) for p in paths]
    for run, label in zip(runs, names, strict=True):
        run.label = label
    xs = {r.label: x_axis(r.steps, r.summary, x) for r in runs}
    # constrained layout: the title and the panels' labels ("learning rate" with its ticks) are measured,
    # not given a fixed margin that a long label or a 5-panel figure's title outgrows
    fig, axes = plt.subplots(
        len(metrics),
        1,
        figsize=(12, 1.0 + 3.0 * len(metrics)),
        sharex=True,
        squeeze=False,
        FigureClass=PlainFigure,
        layout="constrained",
    )
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    curves: dict[str, dict[str, pd.DataFrame]] = {}
    drawn: dict[str, dict[str, np.ndarray]] = {}
    ylims: dict[str, tuple[float, float]] = {}
    missing: dict[str, list[str]] = {}
    notes: dict[str, list[str]] = {}
    for ax, metric in zip(axes[:, 0], metrics, strict=True):
        curves[metric], drawn[metric] = {}, {}
        lim, left_out = _draw_metric(
            ax, metric, runs, xs, x, smoothing, colors, curves[metric], drawn[metric]
        )
        for label in left_out:
            missing.setdefault(metric, []).append(label)
            notes.setdefault(label, []).append(f"no {metric}")
        if lim is not None:
            ylims[metric] = lim
    axes[-1, 0].set_xlabel(X_LABELS[x])
    png = _write_figure(fig, runs, x, smoothing, output)
    table = table_rows(runs, notes, target, x, chosen)
    csv = png.with_suffix(".csv")
    report.write_csv(table, csv)
    return Comparison(
        table, curves, drawn, ylims, X_LABELS[x], png, csv, missing, table.attrs["references"], fig
    )


def _checked(x, metrics, smoothing, options) -> tuple[list[str], float | None]:
    """The metrics to draw (the defaults when none, each once) and the target tokens, after checking the
    x axis, the metrics' names and the smoothing."""
    if x not in X_AXES:
        raise UsageError(f"--x must be step, tokens or time (got {x!r})")
    metrics = list(dict.fromkeys(metrics or DEFAULT_METRICS))
    unknown = [m for m in metrics if m not in METRICS]
    if unknown:
        raise UsageError(f"--metric: unknown {', '.join(unknown)}; one of {', '.join(METRICS)}")
    if not 0 <= smoothing < 1:
        raise UsageError(f"--smooth must be in [0, 1) (got {smoothing})")
    # also for analyzed folders
    return metrics, checked("target_tokens", (options or {}).get("target_tokens"))


def reference(
    ref: str | int | os.PathLike[str], given: list[Any], groups: list[list[Path]], labels: list[str]
) -> int:
    """The run `ref` names (its index in the table): a run's label; a RUN as the user gave it (`given[j]`, which
    stands for the runs `groups[j]`), or the path of one run, the same file however it is written; or a
    position in the table, counted from 1 as the user counts. A UsageError lists what is accepted when no run
    or more than one is named."""
    text = os.fspath(ref) if isinstance(ref, os.PathLike) else str(ref)
    named: dict[int, list[str]] = {}  # run -> how ref names it
    for i, label in enumerate(labels):
        if label == text:
            named.setdefault(i, []).append("its label")
    where = _real(text)
    first = 0
    for arg, group in zip(given, groups, strict=True):
        typed = os.fspath(arg) == text
        if typed or (where is not None and where == _real(os.fspath(arg))):
            for k in range(first, first + len(group)):
                named.setdefault(k, []).append("the RUN given")
        elif where is not None:
            for k, p in enumerate(group, start=first):
                if _real(os.fspath(p)) == where:
                    named.setdefault(k, []).append("its path")
        first += len(group)
    if isinstance(ref, int) or text.strip().isdigit():
        n = int(ref) if isinstance(ref, int) else int(text)
        if 1 <= n <= len(labels):
            named.setdefault(n - 1, []).append("its position")
    if len(named) == 1:
        return next(iter(named))
    accepted = (
        f"give a run's label ({_listed(labels)}), a RUN as given ({_listed([os.fspath(a) for a in given])}) "
        f"or a position from 1 to {len(labels)}"
    )
    if not named:
        raise UsageError(f"--ref {text!r}: no run has that label, path or position; {accepted}")
    which = "; ".join(f"{labels[i]} ({' and '.join(how)})" for i, how in sorted(named.items()))
    raise UsageError(f"--ref {text!r} names {len(named)} runs: {which}; {accepted}")


def _real(path: str) -> str | None:
    """The file a path names, symlinks and `..` resolved; None when there is none."""
    try:
        return os.path.realpath(path) if path and os.path.exists(path) else None
    except (OSError, ValueError):
        return None


def _listed(names: list[str], most: int = 8) -> str:
    shown = ", ".join(names[:most])
    return shown if len(names) <= most else f"{shown}, ... ({len(names)} in all)"


def _draw_metric(ax, metric, runs, xs, x, smoothing, colors, curves, drawn):
    """One metric's panel: each run's raw (faint) and smoothed curve, no line across a restart, a run
    without the metric named in the legend; fills `curves` and `drawn` (by run) and returns the y range it
    set (None when nothing was drawn) and the runs it left out."""
    from ..report.plots import plain

    ylabel, scale = METRICS[metric]
    values, left_out = [], []
    for i, r in enumerate(runs):
        color = colors[i % len(colors)]
        col = r.steps[metric] if metric in r.steps else None
        if col is None or pd.to_numeric(col, errors="coerce").isna().all():
            left_out.append(r.label)
            ax.plot([], [], " ", label=plain(f"{r.label}: no {metric} (left out)"))
            continue
        raw = pd.to_numeric(col, errors="coerce").to_numpy(dtype=float) * scale
        sm = smooth(raw, smoothing)
        xv = xs[r.label].to_numpy(dtype=float)
        curves[r.label] = pd.DataFrame({"x": xv, "raw": raw, "smoothed": sm})
        ok = np.isfinite(raw)
        label = plain(r.label + _stable_note(r.summary, metric))
        seg = r.steps["segment"].to_numpy() if "segment" in r.steps else np.zeros(len(raw))
        px, (praw, psm) = _broken(xv[ok] * X_SCALE[x], seg[ok], raw[ok], sm[ok])
        if smoothing > 0:
            ax.plot(px, praw, color=color, lw=0.8, alpha=0.25)
        (line,) = ax.plot(px, psm, color=color, lw=1.4, label=label)
        drawn[r.label] = np.asarray(line.get_ydata(), dtype=float)
        values += [raw, sm]
    lim = y_range(values)
    if lim is not None:
        ax.set_ylim(*lim)
        _mark_clipped(ax, curves, lim, x, colors, [r.label for r in runs])
    elif metric == "mfu":
        _why_no_mfu(ax, runs)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    return lim, left_out


def _mark_clipped(
    ax, curves: dict[str, pd.DataFrame], lim: tuple[float, float], x: str, colors, labels
) -> None:
    """The points the 1st-99th percentile range leaves off the panel: a triangle on the edge they lie
    beyond (gid "clipped") and a count in the corner, so a clipped axis is not read as the data's range."""
    lo, hi = lim
    above = below = 0
    for label, c in curves.items():
        color = colors[labels.index(label) % len(colors)]
        raw, xv = c["raw"].to_numpy(dtype=float), c["x"].to_numpy(dtype=float) * X_SCALE[x]
        for mask, y, marker in ((raw > hi, hi, "^"), (raw < lo, lo, "v")):
            if mask.any():
                ax.plot(
                    xv[mask], np.full(mask.sum(), y), marker, color=color, ms=4, clip_on=False, gid="clipped"
                )
        above, below = above + int((raw > hi).sum()), below + int((raw < lo).sum())
    parts = [
        f"{n} point{'s' if n != 1 else ''} {where} the axis"
        for n, where in ((above, "above"), (below, "below"))
        if n
    ]
    if parts:
        ax.text(
            0.005,
            0.02,
            "▲▼ " + ", ".join(parts) + " (axis: 1st-99th percentile)",
            transform=ax.transAxes,
            fontsize=7,
            color="0.35",
            ha="left",
            va="bottom",
            gid="clipped_note",
        )


def _why_no_mfu(ax, runs: list[ComparedRun]) -> None:
    """An MFU panel with no curve says why, in the panel: each run's first missing input and the option
    that supplies it (report/unknowns.py), not an empty -0.04..0.04 axis."""
    from ..report.unknowns import mfu_blockers

    reasons: dict[str, list[str]] = {}
    for r in runs:
        try:
            blockers = mfu_blockers(r.summary)
        except (KeyError, TypeError):  # a summary of another version: no reason to name
            blockers = []
        text = blockers[0].text() if blockers else "no MFU in its summary"
        reasons.setdefault(text, []).append(r.label)
    lines = [
        f"no MFU: {text}" + ("" if len(runs) == 1 else f" ({', '.join(labels)})")
        for text, labels in reasons.items()
    ]
    ax.text(
        0.5,
        0.5,
        "\n".join(lines),
        transform=ax.transAxes,
        ha="center",
        va="center",
        fontsize=10,
        color="0.3",
        gid="no_mfu",
    )
    ax.set_yticks([])


def _formula_note(runs: list[ComparedRun]) -> str:
    """`(FLOPs formulas differ: 6n (a), palm (b); no FLOPs count, model unknown: c)` when they differ."""
    by: dict[str | None, list[str]] = {}
    for r in runs:
        by.setdefault(r.summary.get("formula"), []).append(r.label)
    if len(by) <= 1:
        return ""
    named = [f"{f} ({', '.join(by[f])})" for f in sorted(k for k in by if k is not None)]
    text = ", ".join(named)
    if None in by:  # a run whose model is unknown has no formula: it is counted by none
        text += f"; no FLOPs count, model unknown: {', '.join(by[None])}"
    return f"  (FLOPs formulas differ: {text})"


def _write_figure(fig, runs: list[ComparedRun], x: str, smoothing: float, output) -> Path:
    """The title (the runs, the axis, the smoothing, formulas that differ) and the PNG; the layout is
    constrained (the title and labels are measured)."""
    import matplotlib.pyplot as plt

    note = _formula_note(runs)
    sm_note = f"smoothing {smoothing:g} (debiased EMA, raw faint)" if smoothing > 0 else "raw values"
    fig.suptitle(
        f"{len(runs)} runs by {X_LABELS[x]}, {sm_note}{note}", x=0.01, ha="left", fontweight="bold", wrap=True
    )
    png = Path(output)
    if png.parent != Path(""):
        png.parent.mkdir(parents=True, exist_ok=True)
    save_figure(fig, png, dpi=110)
    plt.close(fig)
    return png


def _broken(x: np.ndarray, segment: np.ndarray, *ys: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """The points with a gap (NaN) where a restart segment begins: no line drawn across a restart."""
    cuts = np.flatnonzero(segment[1:] != segment[:-1]) + 1
    return np.insert(x, cuts, np.nan), [np.insert(y, cuts, np.nan) for y in ys]


def _stable_note(summary: Summary, metric: str) -> str:
    st = summary.get("stable") or {}
    v = {
        "mfu": st.get("mfu_mean"),
        "tokens_per_s_per_gpu": st.get("tokens_per_s_per_gpu"),
        "step_time_s": st.get("step_time_s"),
    }.get(metric)
    if v is None:
        return ""
    if metric == "mfu":
        return f": stable {v:.1%}"
    if metric == "tokens_per_s_per_gpu":
        return f": stable {v:,.0f}"
    return f": stable {v:.3g} s"
