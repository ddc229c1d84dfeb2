"""Batch: a folder of past runs into one index, a folder of outputs per run.

The work on one run is one pure function, `analyze_run(RunJob) -> row`, so that it can run here, in a
pool of processes, or on a Dask cluster, with the same rows."""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import regex

from . import __version__
from .attempts import attempt_key, group_attempts
from .errors import LogparseError
from .naming import run_names
from .page import write_page
from .sidecar import find_sidecar, load_sidecar, with_sidecar

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
    "warning_texts",
    "unmatched_lines",
    "cached",
    "out",
]
_INT_COLUMNS = (
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
)
CACHE_FILE = ".logparse-cache.json"
_ROTATED = regex.compile(r"\.(?:log|txt|out|err)\.\d+$", regex.IGNORECASE)  # log.txt.1, train.log.2


def find_logs(folder: str | os.PathLike[str]) -> list[Path]:
    root = Path(folder)
    if not root.is_dir():
        raise LogparseError(f"{folder}: not a folder")
    logs = sorted(
        p
        for p in root.rglob("*")
        if p.is_file()
        and (p.name.lower().endswith(LOG_SUFFIXES) or _ROTATED.search(p.name))
        and "logparse-out" not in p.parts
    )
    if not logs:
        raise LogparseError(f"{folder}: no log files ({', '.join(LOG_SUFFIXES)}) in it")
    return logs


@dataclass(frozen=True)
class RunJob:
    """One run of a batch: its log file(s) (several = attempts of one job, read as one stream, in time
    order), the batch's options, the logparse.toml that applies (if any), and where its outputs go."""

    name: str
    paths: tuple[str, ...]
    out: str
    options: dict[str, Any]
    sidecar: str | None = None
    force: bool = False


def plan_runs(
    folder: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    options: dict[str, Any],
    *,
    stitch: bool = True,
    force: bool = False,
) -> list[RunJob]:
    """The runs under `folder`: one per log, or per group of attempts of one job when `stitch`."""
    logs = find_logs(folder)
    groups = group_attempts(logs) if stitch else [[p] for p in logs]
    # a stitched run is named after its job (train-0.log + train-1.log -> train)
    named = [g[0] if len(g) == 1 else g[0].parent / attempt_key(g[0])[0] for g in groups]
    jobs = []
    for group, name in zip(groups, run_names(list(named)), strict=True):
        sidecar = find_sidecar(group[0].parent, folder)
        jobs.append(
            RunJob(
                name,
                tuple(str(p) for p in group),
                str(Path(out_dir) / name),
                options,
                None if sidecar is None else str(sidecar),
                force,
            )
        )
    return jobs


def fingerprint(job: RunJob) -> str | None:
    """What a run's results depend on: its files' sizes and modification times, its sidecar's text, the
    batch's options and logparse's version. None when a file cannot be read (no cache then)."""
    try:
        files = [[p, os.stat(p).st_size, os.stat(p).st_mtime_ns] for p in job.paths]
        sidecar = (
            None if job.sidecar is None else Path(job.sidecar).read_text(encoding="utf-8", errors="replace")
        )
    except OSError:
        return None
    what = {
        "version": __version__,
        "files": files,
        "sidecar": sidecar,
        "options": job.options,
        "name": job.name,
    }
    return hashlib.sha256(json.dumps(what, sort_keys=True, default=str).encode()).hexdigest()


def _cached_row(job: RunJob, fp: str | None) -> dict[str, Any] | None:
    if fp is None or job.force:
        return None
    try:
        cache = json.loads((Path(job.out) / CACHE_FILE).read_text())
    except (OSError, ValueError):
        return None
    if cache.get("fingerprint") != fp or not isinstance(cache.get("row"), dict):
        return None
    if not (Path(job.out) / "summary.json").is_file():  # the outputs were removed since
        return None
    return {**cache["row"], "cached": True}


def analyze_run(job: RunJob) -> dict[str, Any]:
    """Analyze one run and write its outputs (report.png, summary.json, steps.csv) into `job.out`; return
    its index row. Reuses the row of an earlier batch when nothing it depends on changed (unless
    `job.force`). A failure is a row with its error, never an exception: the batch goes on."""
    from . import api
    from .report import write_outputs

    row: dict[str, Any] = {"run": job.name, "source": " + ".join(job.paths), "cached": False}
    fp = fingerprint(job)
    hit = _cached_row(job, fp)
    if hit is not None:
        return hit
    out = Path(job.out)
    try:
        options = job.options
        if job.sidecar is not None:
            options = with_sidecar(options, load_sidecar(job.sidecar))
        # one process per run: the batch spreads runs over the cores, not one log's ranges
        analysis = api.analyze(
            job.paths[0] if len(job.paths) == 1 else list(job.paths), **{**options, "jobs": 1}
        )
    except LogparseError as exc:
        row = {**row, "status": "error", "error": str(exc)}
    except Exception as exc:  # a bug on one file must not lose the others
        row = {**row, "status": "error", "error": f"internal error: {type(exc).__name__}: {exc}"}
    else:
        write_outputs(analysis, out)
        row = {**row, **_summary_columns(analysis.summary), "out": str(out)}
    cache = out / CACHE_FILE
    if row["status"] == "ok" and fp is not None:
        cache.write_text(json.dumps({"fingerprint": fp, "row": row}, indent=1, default=str) + "\n")
    elif cache.exists():
        cache.unlink()
    return row


def _summary_columns(s: dict[str, Any]) -> dict[str, Any]:
    st = s["stable"]
    return {
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
        "warning_texts": " | ".join(str(w) for w in s["warnings"]),
        "unmatched_lines": s["lines"]["unmatched"],
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


Progress = Callable[[Iterable[dict[str, Any]], int], Iterable[dict[str, Any]]]


def run_batch(
    folder: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    options: dict[str, Any],
    jobs: int | None = None,
    progress: Progress | None = None,
    *,
    executor: str = "local",
    scheduler: str | None = None,
    force: bool = False,
    stitch: bool = True,
) -> pd.DataFrame:
    """Analyze every run under `folder` (the same options for all, a run folder's logparse.toml on top);
    write a folder per run, `index.csv` and `index.json`. `jobs`: runs at once (default: the machine's
    cores); `executor`: "local" (processes here) or "dask" (the cluster at `scheduler`, else a local one)."""
    out = Path(out_dir)
    work = plan_runs(folder, out, options, stitch=stitch, force=force)
    out.mkdir(parents=True, exist_ok=True)
    jobs = max(1, jobs or os.cpu_count() or 1)
    if executor == "local":
        rows = _run_local(work, jobs, progress)
    elif executor == "dask":
        rows = _run_dask(work, jobs, scheduler, progress)
    else:
        raise LogparseError(f"unknown executor {executor!r}: use local or dask")
    index = index_frame(rows)
    index.to_csv(out / "index.csv", index=False)
    (out / "index.json").write_text(json.dumps(json.loads(index.to_json(orient="records")), indent=2) + "\n")
    write_page(out, index)  # leaderboard.png and index.html
    return index


def index_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    index = pd.DataFrame(rows).reindex(columns=INDEX_COLUMNS)
    for col in _INT_COLUMNS:
        index[col] = index[col].astype("Int64")
    index["cached"] = index["cached"].fillna(False).astype(bool)
    return index


def _run_local(work: list[RunJob], jobs: int, progress: Progress | None) -> list[dict[str, Any]]:
    if jobs > 1 and len(work) > 1:
        with ProcessPoolExecutor(max_workers=min(jobs, len(work))) as pool:
            results: Iterable[dict[str, Any]] = pool.map(analyze_run, work)
            return list(progress(results, len(work)) if progress else results)
    results = (analyze_run(w) for w in work)
    return list(progress(results, len(work)) if progress else results)


def _run_dask(
    work: list[RunJob], jobs: int, scheduler: str | None, progress: Progress | None
) -> list[dict[str, Any]]:
    """The runs as Dask tasks: on the cluster at `scheduler` (its workers need logparse installed and the
    logs and output folder at the same paths), else on a local cluster of `jobs` workers (threads in this
    process when jobs is 1)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise LogparseError(
            "--executor dask needs Dask's distributed scheduler: pip install 'logparse[dask]'"
        ) from None
    cluster = None
    quiet = logging.getLogger("distributed")
    level = quiet.level
    if scheduler is None:
        # a throwaway local cluster: its start-up and shut-down chatter is not the batch's output
        quiet.setLevel(logging.ERROR)
        cluster = LocalCluster(
            n_workers=min(jobs, max(1, len(work))),
            threads_per_worker=1,
            processes=jobs > 1,
            dashboard_address=None,
        )
    try:
        with Client(cluster if cluster is not None else scheduler) as client:
            futures = client.map(analyze_run, work, pure=False)

            def gathered() -> Iterator[dict[str, Any]]:
                for f in futures:
                    yield f.result()

            results: Iterable[dict[str, Any]] = gathered()
            return list(progress(results, len(work)) if progress else results)
    except OSError as exc:
        raise LogparseError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    finally:
        if cluster is not None:
            cluster.close()
        quiet.setLevel(level)
