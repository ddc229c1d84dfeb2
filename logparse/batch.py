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
