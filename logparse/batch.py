"""Batch and compare: a folder of past runs into one index, and runs side by side on one figure."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pandas as pd

from .errors import LogparseError
from .naming import run_names

LOG_SUFFIXES = (".log", ".txt", ".out", ".err", ".gz", ".bz2", ".xz", ".zst")
INDEX_COLUMNS = [
    "run",
    "source",
    "status",
    "error",
    "run_status",
    "format",
    "gpus",
    "gpus_source",
    "hardware",
    "dtype",
    "peak_tflops_per_gpu",
    "formula",
    "seq_len",
    "steps",
    "warmup_steps",
    "stable_start",
    "stable_end",
    "mfu",
    "hfu",
    "tokens_per_s",
    "tokens_per_s_per_gpu",
    "step_time_s",
    "tflops_per_gpu",
    "window",
    "window_step_time_s",
    "window_tflops_per_gpu",
    "window_mfu",
    "dips",
    "dip_lost_s",
    "restarts",
    "warnings",
    "unmatched_lines",
    "out",
]


def find_logs(folder: str | os.PathLike[str]) -> list[Path]:
    root = Path(folder)
    if not root.is_dir():
        raise LogparseError(f"{folder}: not a folder")
    logs = sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and p.name.lower().endswith(LOG_SUFFIXES) and "logparse-out" not in p.parts
    )
    if not logs:
        raise LogparseError(f"{folder}: no log files ({', '.join(LOG_SUFFIXES)}) in it")
    return logs


def _analyze_and_write(args: tuple[str, str, dict[str, Any], str]) -> dict[str, Any]:
    """Analyze one log; a failure is a row with its error, never the end of the batch."""
    from . import api
    from .report import write_outputs

    path, out_root, options, name = args
    row: dict[str, Any] = {"run": name, "source": path}
    try:
        analysis = api.analyze(path, **options)
    except LogparseError as exc:
        return {**row, "status": "error", "error": str(exc)}
    except Exception as exc:  # a bug on one file must not lose the others
        return {**row, "status": "error", "error": f"internal error: {type(exc).__name__}: {exc}"}
    out = Path(out_root) / name
    write_outputs(analysis, out)
    s = analysis.summary
    st = s["stable"]
    return {
        **row,
        "status": "ok",
        "error": None,
        "run_status": s["status"],
        "format": s["format"],
        "gpus": s["gpus"],
        "gpus_source": s["gpus_source"],
        "hardware": s["hardware"]["name"],
        "dtype": s["hardware"]["dtype"],
        "peak_tflops_per_gpu": s["hardware"]["peak_tflops_per_gpu"],
        "formula": s["formula"],
        "seq_len": s["model"]["seq_len"],
        "steps": s["steps"]["count"],
        "warmup_steps": s["warmup_steps"],
        "stable_start": st["start_step"],
        "stable_end": st["end_step"],
        "mfu": st["mfu_mean"],
        "hfu": st["hfu_mean"],
        "tokens_per_s": st["tokens_per_s"],
        "tokens_per_s_per_gpu": st["tokens_per_s_per_gpu"],
        "step_time_s": st["step_time_s"],
        "tflops_per_gpu": st["tflops_per_gpu"],
        **_window_columns(s.get("window")),
        "dips": len(s["dips"]),
        "dip_lost_s": sum(d["lost_s"] or 0 for d in s["dips"]),
        "restarts": len(s["restarts"]),
        "warnings": len(s["warnings"]),
        "unmatched_lines": s["lines"]["unmatched"],
        "out": str(out),
    }


def _window_columns(w: dict[str, Any] | None) -> dict[str, Any]:
    """The mean of each headline figure over the peer-style window, when one was asked for."""
    if w is None:
        return {"window": None, "window_step_time_s": None, "window_tflops_per_gpu": None, "window_mfu": None}
    mean = {k: (w.get(k) or {}).get("mean") for k in ("step_time_s", "tflops_per_gpu", "mfu")}
    return {
        "window": w["rule"],
        "window_step_time_s": mean["step_time_s"],
        "window_tflops_per_gpu": mean["tflops_per_gpu"],
        "window_mfu": mean["mfu"],
    }


def run_batch(
    folder: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    options: dict[str, Any],
    jobs: int = 1,
    progress: Callable[[Iterable[dict[str, Any]], int], Iterable[dict[str, Any]]] | None = None,
) -> pd.DataFrame:
    """Analyze every log under `folder` with the same defaults; write `index.csv` and `index.json`."""
    logs = find_logs(folder)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    work = [(str(p), str(out), options, name) for p, name in zip(logs, run_names(list(logs)), strict=True)]
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results: Iterable[dict[str, Any]] = pool.map(_analyze_and_write, work)
            rows = list(progress(results, len(work)) if progress else results)
    else:
        results = (_analyze_and_write(w) for w in work)
        rows = list(progress(results, len(work)) if progress else results)
    index = pd.DataFrame(rows).reindex(columns=INDEX_COLUMNS)
    for col in (
        "gpus",
        "seq_len",
        "steps",
        "warmup_steps",
        "stable_start",
        "stable_end",
        "dips",
        "restarts",
        "warnings",
        "unmatched_lines",
    ):
        index[col] = index[col].astype("Int64")
    index.to_csv(out / "index.csv", index=False)
    (out / "index.json").write_text(json.dumps(json.loads(index.to_json(orient="records")), indent=2) + "\n")
    return index


# ------------------------------------------------------------------------------------------------
# compare


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
