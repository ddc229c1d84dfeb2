"""Compare: several runs on one figure, against step, tokens or wall time, with a table beside it."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pandas as pd

from .errors import LogparseError
from .naming import run_names


def load_run(
    ref: str | os.PathLike[str], options: dict[str, Any]
) -> tuple[str, pd.DataFrame, dict[str, Any]]:
    """A run for comparison: an output folder (summary.json + steps.csv) or a log to analyze."""
    path = Path(ref)
    if path.is_dir():
        summary_path, steps_path = path / "summary.json", path / "steps.csv"
        if not (summary_path.exists() and steps_path.exists()):
            raise LogparseError(
                f"{ref}: a run folder needs summary.json and steps.csv (from `logparse analyze`)"
            )
        summary = json.loads(summary_path.read_text())
        return summary["run"], pd.read_csv(steps_path), summary
    from . import api

    a = api.analyze(str(path), **options)
    return a.summary["run"], a.steps, a.summary


def compare_runs(
    refs: list[str], x: str, output: str | os.PathLike[str], options: dict[str, Any]
) -> pd.DataFrame:
    """Overlay the runs' MFU (or per-GPU tokens/s) and step time against step, tokens or wall time."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = [load_run(r, options) for r in refs]
    names = [n for n, _, _ in runs]
    if len(set(names)) < len(names):  # same file name in different folders
        names = run_names(list(refs))
    use_mfu = all(s["stable"]["mfu_mean"] is not None for _, _, s in runs)
    metric, label = ("mfu", "MFU (%)") if use_mfu else ("tokens_per_s_per_gpu", "tokens/s per GPU")
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(12, 7), sharex=True)
    rows = []
    for name, (_, steps, s) in zip(names, runs, strict=False):
        xs, xlabel = _x_axis(steps, x)
        y = steps[metric] * (100 if use_mfu else 1) if metric in steps else None
        if y is not None:
            ax1.plot(xs, y, lw=1, label=f"{name}: stable {_fmt_stable(s, use_mfu)}")
        if "step_time_s" in steps:
            ax2.plot(xs, steps["step_time_s"], lw=1, label=name)
        rows.append(
            {
                "run": name,
                "gpus": s["gpus"],
                "hardware": s["hardware"]["name"],
                "mfu": s["stable"]["mfu_mean"],
                "tokens_per_s_per_gpu": s["stable"]["tokens_per_s_per_gpu"],
                "step_time_s": s["stable"]["step_time_s"],
                "formula": s["formula"],
            }
        )
    ax1.set_ylabel(label)
    ax1.legend(fontsize=8)
    ax1.grid(alpha=0.3)
    ax2.set_ylabel("step time (s)")
    ax2.set_xlabel(xlabel)
    ax2.grid(alpha=0.3)
    formulas = {r["formula"] for r in rows}
    note = "" if len(formulas) <= 1 else f"  (formulas differ: {', '.join(sorted(map(str, formulas)))})"
    fig.suptitle(f"{len(runs)} runs by {xlabel}{note}", x=0.01, ha="left", fontweight="bold")
    fig.tight_layout()
    fig.savefig(output, dpi=110)
    plt.close(fig)
    return pd.DataFrame(rows)


def _x_axis(steps: pd.DataFrame, x: str) -> tuple[pd.Series, str]:
    span = steps["step_span"] if "step_span" in steps else 1
    if x == "step":
        return steps["step"], "optimizer step"
    if x == "tokens":
        if "tokens_per_step" not in steps or steps["tokens_per_step"].isna().all():
            raise LogparseError("--x tokens needs the tokens per step (pass --seq-len for logs without it)")
        return (steps["tokens_per_step"] * span).cumsum() / 1e9, "tokens (billions)"
    if x == "time":
        if "step_time_s" not in steps or steps["step_time_s"].isna().all():
            raise LogparseError("--x time needs step times, and a run here has none")
        return (
            steps["step_time_s"].fillna(0) * span
        ).cumsum() / 3600, "wall time (hours, training steps only)"
    raise LogparseError(f"--x must be step, tokens or time (got {x!r})")


def _fmt_stable(s: dict[str, Any], use_mfu: bool) -> str:
    st = s["stable"]
    if use_mfu:
        return f"MFU {st['mfu_mean']:.1%}"
    v = st["tokens_per_s_per_gpu"]
    return "n/a" if v is None else f"{v:,.0f} tok/s/GPU"
