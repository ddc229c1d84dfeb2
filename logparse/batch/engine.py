"""Batch: a folder of past runs into one index, a folder of outputs per run.

The work on one run is one pure function, `analyze_run(RunJob) -> row`, so that it can run here, in a
pool of processes, or on a Dask cluster, with the same rows."""

from __future__ import annotations

import ctypes
import filecmp
import hashlib
import json
import logging
import math
import multiprocessing
import multiprocessing.connection as mp_connection
import numbers
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

import pandas as pd
import regex

from .. import __version__
from ..core import jsontext
from ..core.atomic import replacing
from ..core.atomic import write_text as atomic_write_text
from ..core.bounded import FileRefused, read_bounded
from ..core.errors import LogparseError, NotATrainingLog, NotText, UnrecognisedLog, failure_text, on_sigterm
from ..core.naming import run_names
from ..core.options import Given
from ..core.summary_types import CATEGORIES, GoodputPart, Summary, WindowPart
from ..core.tomlfile import read_toml, read_toml_bytes, without_values
from ..patterns.sets import content_digest, pattern_dirs, set_files
from ..read.attempts import attempt_key, group_attempts
from ..read.runfolder import run_consoles, run_folders
from .page import WARNINGS_JOINED, write_page
from .sidecar import find_sidecar, load_sidecar, with_sidecar

LOG_SUFFIXES = (".log", ".txt", ".out", ".err", ".gz", ".bz2", ".xz", ".zst")


class IndexRow(TypedDict, total=False):
    """One run's row of index.csv / index.json, in the index's column order. A failed run has run, source,
    status ("error"), error and cached; an ok one every column it can know (None where it cannot)."""

    run: str
    source: str
    # "ok" | "error": did logparse analyze it (run_status says how the run itself went); analyze_run says
    # "skipped" of a file that is not a training log (run_batch lists it apart: Skipped)
    status: str
    error: str | None
    run_status: str | None  # the summary's status: None when it cannot be told
    format: str
    gpus: int | None
    gpus_source: str | None
    hardware: str | None
    dtype: str | None
    peak_tflops_per_gpu: float | None
    formula: str | None
    seq_len: int | None
    steps: int | None
    warmup_steps: int | None
    stable_start: int | None
    stable_end: int | None
    mfu: float | None
    hfu: float | None
    tokens_per_s: float | None
    tokens_per_s_per_gpu: float | None
    step_time_s: float | None
    tflops_per_gpu: float | None
    window: str | None
    window_step_time_s: float | None
    window_tflops_per_gpu: float | None
    window_mfu: float | None
    dips: int | None
    dip_lost_s: float | None
    restarts: int | None
    warnings: int | None
    warning_texts: str | None
    unmatched_lines: int | None
    goodput: float | None  # productive / wall time (summary goodput; None without timestamps)
    wall_s: float | None
    gpu_hours: float | None  # wall time x GPUs
    gpu_hours_startup: float | None  # GPU-hours of each badput category (core.summary_types.CATEGORIES)
    gpu_hours_checkpoint: float | None
    gpu_hours_eval: float | None
    gpu_hours_warmup: float | None
    gpu_hours_slow_steps: float | None
    gpu_hours_wasted_progress: float | None
    gpu_hours_hang: float | None
    gpu_hours_restart_recovery: float | None
    gpu_hours_other: float | None
    cost: float | None  # gpu_hours x --gpu-hour-cost
    cached: bool
    out: str | None


# the index's columns and its counts (written as integers), read off the record above
INDEX_COLUMNS = list(IndexRow.__annotations__)
_INT_COLUMNS = tuple(
    c for c, t in IndexRow.__annotations__.items() if getattr(t, "__forward_arg__", t) == "int | None"
)
_FLOAT_COLUMNS = tuple(
    c for c, t in IndexRow.__annotations__.items() if getattr(t, "__forward_arg__", t) == "float | None"
)
CACHE_FILE = ".logparse-cache.json"
# what a batch writes into --out beside the runs' folders: no run is named so (case ignored)
TOP_LEVEL = ("index.csv", "index.json", "index.html", "leaderboard.png", CACHE_FILE)


class Skipped(TypedDict):
    """A file found under the batch folder that is not a run: `kind` "not_a_log" (analyze would refuse it: no
    pattern set recognises it, a document quoting log lines, no text) or "copy" (a run folder's console)."""

    path: str
    reason: str
    kind: str


# a cache entry is one index row (a few kB; its warnings' texts the most of it): a larger file is no entry of ours
MAX_CACHE_BYTES = 4 << 20
_ROTATED = regex.compile(r"\.(?:log|txt|out|err)\.\d+$", regex.IGNORECASE)  # log.txt.1, train.log.2


def find_logs(folder: str | os.PathLike[str], *, inside: list[Path] | None = None) -> list[Path]:
    """The log files under `folder`, each once; none of those inside the run folders `inside` (their own
    runs: a W&B folder's output.log, an HF output dir's train.log)."""
    root = Path(folder)
    if not root.is_dir():
        raise LogparseError(f"{folder}: not a folder")
    skip = {Path(os.path.abspath(d)) for d in inside or ()}
    found = sorted(
        p
        for p in root.rglob("*")
        if p.is_file()
        and (p.name.lower().endswith(LOG_SUFFIXES) or _ROTATED.search(p.name))
        and "logparse-out" not in p.parts
        and not any(
            parent in skip
            for parent in (*Path(os.path.abspath(p)).parents, *Path(os.path.realpath(p)).parents)
        )
        and not _wandb_debug(p)
    )
    if not found and inside is None:
        raise LogparseError(f"{folder}: no log files ({', '.join(LOG_SUFFIXES)}) in it")
    return _one_path_per_file(found)


def _wandb_debug(p: Path) -> bool:
    """wandb's own debug logs (wandb/debug.log, debug-internal.log, debug-cli.*.log, logs/debug-sync.*.log): not
    training logs."""
    return "wandb" in p.parts and p.name.startswith("debug")


def find_runs(folder: str | os.PathLike[str]) -> tuple[list[Path], list[Path]]:
    """The run folders (W&B, HF output dirs, Lightning, TensorBoard: read/runfolder.py) and the log files
    outside them under `folder`: a batch's runs. A file a run folder's reader takes as its run's console (a
    Lightning version_N's console beside lightning_logs/, the terminal's copy of a W&B run's output.log) is
    that run's, not a run of its own."""
    if not Path(folder).is_dir():
        raise LogparseError(f"{folder}: not a folder")
    dirs = [d for d in run_folders(folder) if "logparse-out" not in d.parts]
    consoles = {Path(os.path.realpath(p)): d for d in dirs for p in run_consoles(d)}
    logs = [p for p in find_logs(folder, inside=dirs) if Path(os.path.realpath(p)) not in consoles]
    if not dirs and not logs:
        raise LogparseError(
            f"{folder}: no log files ({', '.join(LOG_SUFFIXES)}) and no run folders (W&B, Hugging Face, Lightning, "
            "TensorBoard) in it"
        )
    copies = _copies(logs, consoles)
    said: list[Skipped] = []
    for p, (console, d) in copies.items():
        why = f"the same bytes as {shown(str(console))}, the console of {shown(d.name)}"
        said.append({"path": shown(str(p)), "reason": why, "kind": "copy"})
    return dirs, [p for p in logs if p not in copies], said


def _copies(logs: list[Path], consoles: dict[Path, Path]) -> dict[Path, tuple[Path, Path]]:
    """The logs whose bytes are those of a run folder's console (a tree of copies: the console copied out
    beside its folder), each with the console and its folder."""
    by_size: dict[int, list[Path]] = {}
    for c in consoles:
        try:
            by_size.setdefault(c.stat().st_size, []).append(c)
        except OSError:
            continue
    out = {}
    for p in logs:
        try:
            same = by_size.get(p.stat().st_size, [])
            twin = next((c for c in same if filecmp.cmp(p, c, shallow=False)), None)
        except OSError:
            continue
        if twin is not None:
            out[p] = (twin, consoles[twin])
    return out


def _one_path_per_file(found: list[Path]) -> list[Path]:
    """Each file once: a link to a log the folder also holds (latest.log -> job42/train.log, a common
    layout) is the same run, found under its own path, not a second run writing the same outputs. A link
    to a file outside the folder is kept, under the link's name."""
    by_file: dict[tuple[int, int] | str, Path] = {}
    for p in found:
        try:
            st = p.stat()
            key: tuple[int, int] | str = (st.st_dev, st.st_ino)
        except OSError:
            key = str(p)
        kept = by_file.get(key)
        if kept is None or (kept.is_symlink() and not p.is_symlink()):
            by_file[key] = p
    keep = set(by_file.values())
    return [p for p in found if p in keep]


@dataclass(frozen=True)
class RunJob:
    """One run of a batch: its log file(s) (several = attempts of one job, read as one stream, in time
    order), the batch's options, the logparse.toml that applies (if any), and where its outputs go."""

    name: str
    paths: tuple[str, ...]
    out: str
    options: Given
    sidecar: str | None = None
    force: bool = False
    root: str | None = None  # the batch folder: what a sidecar may point into


def plan_runs(
    folder: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    options: Given,
    *,
    stitch: bool = True,
    force: bool = False,
) -> tuple[list[RunJob], list[Skipped]]:
    """The runs under `folder`: one per log, or per group of attempts of one job when `stitch`; and the files
    found that are not runs of their own (copies of a run folder's console). Each run's output folder is
    named by naming.run_names from its path under `folder`: distinct, none of the files the batch writes
    beside them (TOP_LEVEL), the same each time."""
    dirs, logs, skipped = find_runs(folder)
    groups = (group_attempts(logs) if stitch else [[p] for p in logs]) + [[d] for d in dirs]
    # a stitched run is named after its job (train-0.log + train-1.log -> train)
    named = [g[0] if len(g) == 1 else g[0].parent / attempt_key(g[0])[0] for g in groups]
    jobs = []
    stitched = {i for i, g in enumerate(groups) if len(g) > 1}  # named with their folder (naming.run_names)
    names = run_names(list(named), stitched, folder, reserved=TOP_LEVEL)
    for group, name in zip(groups, names, strict=True):
        sidecar = find_sidecar(group[0] if group[0].is_dir() else group[0].parent, folder)
        jobs.append(
            RunJob(
                name,
                tuple(str(p) for p in group),
                str(Path(out_dir) / name),
                options,
                None if sidecar is None else str(sidecar),
                force,
                str(folder),
            )
        )
    return jobs, skipped


def fingerprint(job: RunJob) -> str | None:
    """What a run's results depend on: its files' sizes and modification times, its sidecar's text, the
    text of every pattern set it may load (shipped, LOGPARSE_PATTERNS's, the batch's and the sidecar's
    folders), the batch's options and logparse's version. None when something cannot be read (no cache)."""
    try:
        files = [
            [str(f), os.stat(f).st_size, os.stat(f).st_mtime_ns] for p in job.paths for f in _files_of(p)
        ]
        sidecar = None if job.sidecar is None else read_toml_bytes(job.sidecar)
        options = job.options if job.sidecar is None else with_sidecar(job.options, _sidecar(job))
        sets = _pattern_texts(options.get("patterns", ()))
    except (OSError, LogparseError):
        return None
    what = {
        "version": __version__,
        "files": files,
        "sidecar": None if sidecar is None else hashlib.sha256(sidecar).hexdigest(),
        "patterns": sets,
        "options": job.options,
        "name": job.name,
    }
    return hashlib.sha256(json.dumps(what, sort_keys=True, default=str).encode()).hexdigest()


def _files_of(path: str) -> list[str]:
    """A log file itself; every file of a run folder (any of them may change what is read), and the consoles
    its reader takes from beside it (a Lightning version_N's)."""
    if not os.path.isdir(path):
        return [path]
    inside = {str(p) for p in Path(path).rglob("*") if p.is_file() and "logparse-out" not in p.parts}
    return sorted(inside | {str(p) for p in run_consoles(path)})


def _sidecar(job: RunJob) -> Given:
    assert job.sidecar is not None
    return load_sidecar(job.sidecar, root=job.root)


def _pattern_texts(extra: Iterable[str]) -> list[list[str]]:
    """[folder, file, digest] for each pattern set file the run's options would load, in order, the digest of
    its bytes and of the key maps it names (sets.content_digest): an edited set or key map, a set added or
    removed, another LOGPARSE_PATTERNS all change it. A `*.toml` that is not a regular file is listed, not read
    (a FIFO would wait for a writer)."""
    out = []
    dirs = pattern_dirs(extra)
    for folder in dirs:
        if not folder.is_dir():
            out.append([str(folder), "", "missing"])
            continue
        files, skipped = set_files(folder)
        for path in files:
            out.append([str(folder), path.name, content_digest(path, dirs)])
        out += [[str(folder), note, "skipped"] for note in skipped]
    return out


_SCALAR = (str, int, float, bool, type(None))


def _cached_row(job: RunJob, fp: str | None) -> IndexRow | None:
    """The row an earlier batch cached for this run, if nothing it depends on changed and its outputs are
    the ones it wrote; None otherwise, whatever the cache file holds (a cut file, JSON of another shape,
    a folder): the run is then analyzed again."""
    if fp is None or job.force:
        return None
    out = Path(job.out)
    try:
        cache = json.loads(read_bounded(out / CACHE_FILE, MAX_CACHE_BYTES).decode("utf-8"))
    except (OSError, ValueError, FileRefused, RecursionError):  # (RecursionError: nested thousands deep)
        return None
    if not isinstance(cache, dict) or cache.get("fingerprint") != fp:
        return None
    row, outputs = cache.get("row"), cache.get("outputs")
    if not (isinstance(row, dict) and isinstance(outputs, dict) and _row_shaped(row, job)):
        return None
    if set(outputs) != set(OUTPUT_FILES) or any(_stamp(out / f) != outputs[f] for f in OUTPUT_FILES):
        return None  # an output was removed, replaced or cut since
    return {**row, "cached": True}


def _row_shaped(row: dict[str, object], job: RunJob) -> bool:
    """A row as analyze_run writes it: the index's columns, scalars, counts as integers, an ok run of
    this name."""
    if set(row) - set(INDEX_COLUMNS) or row.get("run") != job.name or row.get("status") != "ok":
        return False
    if not all(isinstance(v, _SCALAR) for v in row.values()):
        return False
    if row.get("out") != str(job.out) or row.get("source") != _source(job):
        return False  # a row of another run's folder, or pointing elsewhere
    counts = (row.get(c) for c in _INT_COLUMNS)
    if not all(v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in counts):
        return False
    figures = (row.get(c) for c in _FLOAT_COLUMNS)
    return all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)) for v in figures)


OUTPUT_FILES = ("summary.json", "steps.csv", "report.png")


def _stamp(path: Path) -> list[int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def _forget(out: Path) -> None:
    """Remove a run's cache entry before its outputs are written again: a run killed while writing leaves
    no entry, and the next batch analyzes it again."""
    try:
        (out / CACHE_FILE).unlink()
    except FileNotFoundError:
        pass
    except IsADirectoryError:
        pass  # not ours to remove; _remember will not write over it either


def _remember(out: Path, fp: str, row: IndexRow) -> None:
    """The cache entry, written last (after every output is whole) and itself whole."""
    if (out / CACHE_FILE).is_dir():
        return
    outputs = {f: _stamp(out / f) for f in OUTPUT_FILES}
    entry = {"fingerprint": fp, "row": row, "outputs": outputs}
    atomic_write_text(out / CACHE_FILE, jsontext.dumps(entry, indent=1, default=str) + "\n")


def _source(job: RunJob) -> str:
    """The run's log files for the index; a link as `link -> the file it points at`."""
    return shown(" + ".join(f"{p} -> {os.path.realpath(p)}" if os.path.islink(p) else p for p in job.paths))


def shown(text: str) -> str:
    """Text for the index and the page: a file name's undecodable bytes (held as surrogates) shown as
    U+FFFD, so that the index can be written as UTF-8."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def analyze_run(job: RunJob) -> IndexRow:
    """Analyze one run and write its outputs (report.png, summary.json, steps.csv) into `job.out`; return
    its index row. Reuses the row of an earlier batch when nothing it depends on changed (unless
    `job.force`). A failure of any kind, in the analysis or in writing (a full disk), is a row with its
    error, never an exception: the batch goes on."""
    row: IndexRow = {"run": job.name, "source": _source(job), "cached": False}
    try:
        row = _analyze_and_write(job, row)
    except (UnrecognisedLog, NotText) as exc:
        # a file that is not a training log (analyze's own test, on the file's head): said, not a failed run;
        # a run folder is a run whatever its console holds
        if any(os.path.isdir(p) for p in job.paths):
            row = {**row, "status": "error", "error": failure_text(exc, job.out)}
        else:
            row = {**row, "status": SKIPPED, "error": _why_not_a_log(exc)}
    except Exception as exc:  # any failure (a bug too: it must not lose the other runs) is this run's row
        row = {**row, "status": "error", "error": _sidecar_unquoted(job, failure_text(exc, job.out))}
    return {k: shown(v) if isinstance(v, str) else v for k, v in row.items()}


def _sidecar_unquoted(job: RunJob, error: str) -> str:
    """A run's error without the values of its logparse.toml: an option's check quotes a bad value
    (`unknown hardware 'h1000'`), which the index and the page never show; the key stands in for it, and
    the error names the file."""
    if job.sidecar is None:
        return error
    try:
        table = read_toml(job.sidecar)
    except LogparseError:
        return error  # the file's own error, which quotes none of it
    hidden = without_values(error, table)
    return hidden if hidden == error or job.sidecar in hidden else f"{job.sidecar}: {hidden}"


# analyze_run's status for a file that is not a training log (listed apart, not in the index)
SKIPPED = "skipped"


def _why_not_a_log(exc: UnrecognisedLog | NotText) -> str:
    if isinstance(exc, (NotATrainingLog, NotText)):
        return exc.reason
    return "no pattern set recognises it (`logparse patterns explain FILE` shows its line shapes)"


def _analyze_and_write(job: RunJob, row: IndexRow) -> IndexRow:
    from .. import api
    from ..report.outputs import write_outputs

    fp = fingerprint(job)
    hit = _cached_row(job, fp)
    if hit is not None:
        return hit
    out = Path(job.out)
    _forget(out)
    options = job.options
    if job.sidecar is not None:
        options = with_sidecar(options, _sidecar(job))
    # one process per run: the batch spreads runs over the cores, not one log's ranges
    analysis = api.analyze(job.paths[0] if len(job.paths) == 1 else list(job.paths), **{**options, "jobs": 1})
    # the run as the batch names it (index.csv, the page, its folder): runs/a/train.log and runs/b/train.log
    # are a_train and b_train, and their reports' titles and summaries say so, not "train" each
    analysis.run.name = analysis.summary["run"] = job.name
    write_outputs(analysis, out, thumbnail=True)  # the page's thumbnail drawn here, beside the others
    row = {**row, **_summary_columns(analysis.summary), "out": str(out)}
    if fp is not None:
        _remember(out, fp, row)
    return row


def _summary_columns(s: Summary) -> IndexRow:
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
        "warning_texts": WARNINGS_JOINED.join(str(w) for w in s["warnings"]),
        "unmatched_lines": s["lines"]["unmatched"],
        **_goodput_columns(s.get("goodput")),
    }


def _goodput_columns(g: GoodputPart | None) -> IndexRow:
    """The ledger's goodput, wall time and GPU-hours (lost per category), each None where unknown."""
    lost = (g or {}).get("gpu_hours_badput") or {}
    row: IndexRow = {
        "goodput": g["goodput"] if g else None,
        "wall_s": g["wall_s"] if g else None,
        "gpu_hours": g.get("gpu_hours") if g else None,
    }
    for category in CATEGORIES:
        row[f"gpu_hours_{category}"] = lost.get(category)  # type: ignore[literal-required]
    row["cost"] = g.get("cost") if g else None
    return row


def _window_columns(w: WindowPart | None) -> IndexRow:
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


Progress = Callable[[Iterable[IndexRow], int], Iterable[IndexRow]]


def run_batch(
    folder: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    options: Given,
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
    if executor not in ("local", "dask"):
        raise LogparseError(f"unknown executor {executor!r}: use local or dask")
    work, skipped = plan_runs(folder, out, options, stitch=stitch, force=force)
    out.mkdir(parents=True, exist_ok=True)
    jobs = max(1, jobs or os.cpu_count() or 1)
    rows: list[IndexRow] = []

    def collect(results: Iterable[IndexRow], total: int) -> Iterator[IndexRow]:
        for row in progress(results, total) if progress else results:
            rows.append(row)
            yield row

    def unfinished(why: str) -> list[IndexRow]:
        done = {r["run"] for r in rows}
        return [{**_died(j, None), "error": f"not analyzed: {why}"} for j in work if j.name not in done]

    try:
        with on_sigterm(_as_ctrl_c):
            if executor == "local":
                _run_local(work, jobs, collect)
            else:
                _run_dask(work, jobs, scheduler, collect)
    except KeyboardInterrupt:
        # the runs that finished are indexed, the others say why they are missing
        write_index(out, _index(rows + unfinished("the batch was interrupted"), work, skipped, folder))
        raise
    except ClusterLost as exc:
        lost = unfinished("the Dask cluster lost its workers")
        write_index(out, _index(rows + lost, work, skipped, folder))
        analyzed = sum(r.get("status") == "ok" for r in rows)
        raise LogparseError(
            f"{exc}: {len(lost)} of {len(work)} runs not analyzed ({analyzed} analyzed), each named in "
            f"{out / 'index.csv'}; start workers and run the batch again (the analyzed runs are cached)"
        ) from None
    index = _index(rows, work, skipped, folder)
    try:
        write_index(out, index)
    except LogparseError as exc:
        exc.index = index  # type: ignore[attr-defined]  # the CLI still names every run's failure
        raise
    return index


def _index(
    rows: list[IndexRow], work: list[RunJob], skipped: list[Skipped], root: str | os.PathLike[str]
) -> pd.DataFrame:
    """The index of the runs' rows; in its attrs, the files that were not runs ("skipped": the planned ones,
    then those analyze_run found not to be training logs, one per file) and the lines that say so
    ("skipped_lines": skipped_lines)."""
    index = index_frame(_in_order([r for r in rows if r.get("status") != SKIPPED], work))
    paths = {j.name: j.paths for j in work}
    found: list[Skipped] = [
        {"path": shown(p), "reason": str(r.get("error")), "kind": "not_a_log"}
        for r in _in_order([r for r in rows if r.get("status") == SKIPPED], work)
        for p in paths.get(r["run"], (r["source"],))
    ]
    index.attrs["skipped"] = skipped + found
    index.attrs["skipped_lines"] = skipped_lines(skipped + found, root)
    return index


def _in_order(rows: list[IndexRow], work: list[RunJob]) -> list[IndexRow]:
    order = {j.name: i for i, j in enumerate(work)}
    return sorted(rows, key=lambda r: order.get(r["run"], len(order)))


def write_index(out: Path, index: pd.DataFrame) -> None:
    """index.csv, index.json and the page (leaderboard.png, index.html), each whole or not at all. index.json
    also lists the files that are not training logs (index_json)."""
    try:
        with replacing(out / "index.csv") as tmp:
            index.to_csv(tmp, index=False)
        atomic_write_text(out / "index.json", index_json(index) + "\n")
        write_page(out, index)
    except OSError as exc:
        raise LogparseError(f"cannot write the index {exc.filename or out}: {exc.strerror or exc}") from None


SKIP_WORDS = {  # (one file, several)
    "not_a_log": ("is not a training log", "are not training logs"),
    "copy": (
        "is a copy of a run folder's console (read with that run)",
        "are copies of run folders' consoles (read with their runs)",
    ),
}
SKIPPED_NAMED = 10  # files named on the summary line; index.json lists them all


def skipped_lines(skipped: list[Skipped], root: str | os.PathLike[str]) -> list[str]:
    """The summary's lines for the files that were not runs, a line per kind: `skipped: 2 files that are not
    training logs: requirements.txt, notes.txt` (paths under the batch folder)."""
    lines = []
    for kind, (one, several) in SKIP_WORDS.items():
        paths = [_under(s["path"], root) for s in skipped if s["kind"] == kind]
        if not paths:
            continue
        more = len(paths) - SKIPPED_NAMED
        named = ", ".join(paths[:SKIPPED_NAMED])
        if more > 0:
            named += f" and {more} more (index.json lists them)"
        what = f"1 file that {one}" if len(paths) == 1 else f"{len(paths)} files that {several}"
        lines.append(f"skipped: {what}: {named}")
    return lines


def _under(path: str, root: str | os.PathLike[str]) -> str:
    try:
        return Path(path).relative_to(root).as_posix()
    except ValueError:
        return path


def _as_ctrl_c(signum: int, frame: Any) -> None:
    """`kill -TERM` of the batch is handled as Ctrl-C: the workers are ended, the index of the finished runs
    written."""
    raise KeyboardInterrupt


def index_json(index: pd.DataFrame) -> str:
    """index.json's text (and `batch --json`'s), strict JSON: a list of the runs' rows, as index.csv has them,
    then a row for each file that was not analysed because it is not a training log (`status` "skipped", its
    path as `source`, the reason as `error`), so that a reader of the index sees every file the batch passed
    over. A copy of a run folder's console is not listed: it was read with its run."""
    rows = json.loads(index.to_json(orient="records"))
    blank = dict.fromkeys(INDEX_COLUMNS)
    for s in index.attrs.get("skipped", []):
        if s["kind"] == "not_a_log":
            row = {**blank, "run": Path(s["path"]).name, "source": s["path"], "status": SKIPPED}
            rows.append({**row, "error": s["reason"], "cached": False})
    return jsontext.dumps(rows, indent=2)


def index_frame(rows: list[IndexRow]) -> pd.DataFrame:
    """The index: a row per run, the failed ones first (each in the order of the runs). Every value is made
    to fit its column first (_fitted): one run's value never stops the index of all of them."""
    rows = sorted((_fitted(r) for r in rows), key=lambda r: r.get("status") == "ok")
    index = pd.DataFrame(rows).reindex(columns=INDEX_COLUMNS)
    for col in _INT_COLUMNS:
        index[col] = index[col].astype("Int64")
    index["cached"] = index["cached"].fillna(False).astype(bool)
    return index


_INT64 = range(-(2**63), 2**63)


def _fitted(row: IndexRow) -> IndexRow:
    """The row with each value in its column's type: a count a whole number within int64, a figure a finite
    number, a text a string, None where a value does not fit (a GPU count of 1e20 from a run folder's file,
    inf, a string where a number goes). Such a value is left out and the run's warnings say so, naming the
    column, not the value (it may be a sidecar's, which the page never shows)."""
    out = dict(row)
    unfit = []
    for col, value in row.items():
        if value is None or col not in INDEX_COLUMNS:
            continue
        if col in _INT_COLUMNS:
            fit, kind = _whole(value), "a whole number within 64 bits"
        elif col in _FLOAT_COLUMNS:
            fit, kind = _figure(value), "a finite number"
        elif col == "cached":
            fit, kind = (value if isinstance(value, bool) else None), "true or false"
        else:
            fit, kind = (value if isinstance(value, str) else None), "a text"
        if fit is None and not _unknown(value):
            unfit.append(f"the index leaves {col} empty: the run's value is not {kind}")
        out[col] = fit
    if unfit:
        texts = [t for t in (out.get("warning_texts") or "").split(WARNINGS_JOINED) if t]
        count = _whole(out.get("warnings"))
        out["warning_texts"] = WARNINGS_JOINED.join([*texts, *unfit])
        out["warnings"] = (len(texts) if count is None else count) + len(unfit)
    return out  # type: ignore[return-value]


def _unknown(value: object) -> bool:
    """NaN (or pandas' NA): how a frame says unknown; left empty without a word."""
    return value is pd.NA or (isinstance(value, float) and math.isnan(value))


def _whole(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    try:
        f = float(value)
        n = int(value)
    except (OverflowError, ValueError):
        return None
    return n if math.isfinite(f) and n == value and n in _INT64 else None


def _figure(value: object) -> float | None:
    """A finite number as it is (a whole number stays one: a dip cost of 0 is written 0), else None."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    whole = _whole(value) if isinstance(value, numbers.Integral) else None
    if whole is not None:
        return whole
    try:
        f = float(value)
    except OverflowError:
        return None
    return f if math.isfinite(f) else None


def _run_local(work: list[RunJob], jobs: int, progress: Progress | None) -> list[IndexRow]:
    if jobs > 1 and len(work) > 1:
        results: Iterable[IndexRow] = _pool_rows(work, min(jobs, len(work)))
    else:
        results = (analyze_run(w) for w in work)
    return list(progress(results, len(work)) if progress else results)


def _pool_rows(work: list[RunJob], workers: int) -> Iterator[IndexRow]:
    """Each run's row, analyzed by `workers` processes that each take one run at a time, in the order they
    finish. A worker that dies (killed, out of memory) is that run's row with the cause, and another
    worker takes its place; the others go on. Workers die with this process (see _worker)."""
    ctx = multiprocessing.get_context()
    todo = list(reversed(range(len(work))))  # popped from the end: first run first
    busy: dict[Any, tuple[Any, int]] = {}  # connection -> (process, the run it is analyzing)
    idle: list[tuple[Any, Any]] = []

    def start() -> tuple[Any, Any]:
        here, there = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(there, os.getpid()), daemon=True)
        # Ctrl-C and SIGTERM held back while the worker starts: it is born with them blocked and unblocks them
        # once it ignores the one and takes the other's default; here they are delivered after start, not lost
        # (a Ctrl-C in that window printed the new worker's traceback)
        held = _block(_HELD)
        try:
            proc.start()
        finally:
            _unblock(held)
        there.close()
        return proc, here

    def give(proc: Any, conn: Any) -> None:
        i = todo.pop()
        try:
            conn.send(work[i])
        except OSError:  # it died after its last answer: a fresh one takes the run
            conn.close()
            proc, conn = start()
            everyone.append((proc, conn))
            conn.send(work[i])
        busy[conn] = (proc, i)

    everyone: list[tuple[Any, Any]] = []
    try:
        for _ in range(workers):
            everyone.append(start())
        idle.extend(everyone)
        while todo or busy:
            while todo and idle:
                give(*idle.pop())
            ready = mp_connection.wait([*busy, *(p.sentinel for p, _ in busy.values())])
            for conn in [c for c in busy if c in ready or busy[c][0].sentinel in ready]:
                proc, i = busy.pop(conn)
                try:
                    row = conn.recv()
                except (EOFError, OSError):  # died before it could answer
                    proc.join(timeout=5)
                    row = _died(work[i], proc.exitcode)
                    conn.close()
                    proc, conn = start()
                    everyone.append((proc, conn))
                idle.append((proc, conn))
                yield row
    finally:
        for proc, _conn in everyone:
            if proc.is_alive():
                proc.kill()  # an interrupt: the runs they hold are not waited for
        for proc, conn in everyone:
            proc.join(timeout=5)
            conn.close()


def _died(job: RunJob, code: int | None) -> IndexRow:
    if code is not None and code < 0:
        try:
            how = f"killed by {signal.Signals(-code).name}"
        except ValueError:
            how = f"killed by signal {-code}"
        if code == -signal.SIGKILL:
            how += " (out of memory? the kernel's OOM killer sends it)"
    else:
        how = f"exit code {code}"
    return {
        "run": job.name,
        "source": _source(job),
        "cached": False,
        "status": "error",
        "error": f"the process analyzing it died: {how}",
    }


def _worker(conn: Any, parent: int) -> None:
    """A pool process: analyze the runs it is sent, one at a time, until told to stop or its parent dies.
    Ctrl-C is the parent's to handle (it ends the workers itself, without their tracebacks)."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _unblock_held()  # blocked by the parent around start
    if os.getppid() != parent:  # the parent died before the line above
        return
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(analyze_run(job))


_HELD = {signal.SIGINT, signal.SIGTERM}


def _block(signals: set[signal.Signals]) -> set[signal.Signals] | None:
    """Block `signals` in this thread; the set blocked before, or None where signal masks are not (Windows)."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, signals)


def _unblock(before: set[signal.Signals] | None) -> None:
    """Restore the mask `_block` saved."""
    if before is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _unblock_held() -> None:
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)


def _die_with_parent() -> None:
    """On Linux, ask the kernel to kill this process when its parent dies (prctl PR_SET_PDEATHSIG), so
    that a `kill -9` of the batch leaves no orphans; elsewhere the closed pipe ends the worker at its next
    run."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1 (linux/prctl.h)
    except (OSError, AttributeError):
        pass


# how long a batch waits on a Dask cluster that has no worker (all died, or left) before it stops; a worker
# that dies is restarted by its nanny within seconds
NO_WORKERS_WAIT_S = 30.0


class ClusterLost(LogparseError):
    """The Dask cluster has had no worker for NO_WORKERS_WAIT_S while runs waited on it."""


def _dask_rows(client: Any, work: list[RunJob], where: str) -> Iterator[IndexRow]:
    """Each run's row, in the order they finish, with no more runs in flight than the cluster has threads:
    a worker then holds only the run it is analyzing, so a run that kills its worker takes no other run's
    try with it (all at once, Dask queues a second task on a worker, and that one dies too, or counts as
    suspect, when its neighbour kills the worker). While it waits, the scheduler is asked how many workers it
    has: Dask keeps a task waiting for a worker forever, so a cluster left with none raises ClusterLost."""
    from distributed import TimeoutError as DaskTimeout
    from distributed import wait

    slots = max(1, _threads(client))
    todo = iter(work)
    job_of: dict[Any, RunJob] = {}

    def submit() -> Any:
        for job in todo:
            f = client.submit(analyze_run, job, pure=False)
            job_of[f] = job
            return f
        return None

    running = {f for f in (submit() for _ in range(slots)) if f is not None}
    poll = min(1.0, NO_WORKERS_WAIT_S / 4)
    alone_since: float | None = None
    while running:
        try:
            done = wait(list(running), timeout=poll, return_when="FIRST_COMPLETED").done
        except DaskTimeout:
            done = set()
        if not done:
            if _threads(client) > 0:
                alone_since = None
            elif alone_since is None:
                alone_since = time.monotonic()
            elif time.monotonic() - alone_since >= NO_WORKERS_WAIT_S:
                try:
                    client.cancel(list(running))
                except Exception:  # noqa: BLE001, S110 - the scheduler may be gone too
                    pass
                raise ClusterLost(f"{where} has had no workers for {NO_WORKERS_WAIT_S:g} s")
            continue
        for f in done:
            running.discard(f)
            job = job_of.pop(f)
            try:
                yield f.result()
            except Exception as exc:  # KilledWorker: the run killed the workers it was tried on
                yield {**_died(job, None), "error": f"its Dask task failed: {type(exc).__name__}: {exc}"}
            nxt = submit()
            if nxt is not None:
                running.add(nxt)


def _threads(client: Any) -> int:
    """The threads of the cluster's workers (0 when the scheduler cannot be asked)."""
    try:
        return sum(client.nthreads().values())
    except Exception:  # noqa: BLE001 - a scheduler that is gone has no workers
        return 0


def _run_dask(
    work: list[RunJob], jobs: int, scheduler: str | None, progress: Progress | None
) -> list[IndexRow]:
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
            where = f"the Dask cluster at {scheduler}" if scheduler else "the local Dask cluster"
            results: Iterable[IndexRow] = _dask_rows(client, work, where)
            return list(progress(results, len(work)) if progress else results)
    except OSError as exc:
        raise LogparseError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    finally:
        if cluster is not None:
            cluster.close()
        quiet.setLevel(level)
