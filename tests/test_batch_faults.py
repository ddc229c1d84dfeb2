"""batch under faults: each run's failure of any kind is that run's row and the others go on, the
index is always written, outputs are whole or absent, the cache never serves what it did not write, and the
workers end with the batch."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import logparse.api
from logparse.batch import engine as batch_mod
from tests.conftest import SAMPLES, cut_before_its_first_step, run_apart

TITAN = SAMPLES / "torchtitan_llama3-8b_8xh100.log"  # small: 40 runs of it take seconds
MEGATRON = SAMPLES / "megatron_llama2-7b_8xh100.log"
OPTS = ("--hw", "h100", "--gpus", "8")


def batch_command(runs: Path, out: Path, *more: str) -> list[str]:
    """`logparse batch` of the runs folder on two workers, as a user starts it from a shell."""
    return [
        sys.executable,
        "-m",
        "logparse",
        "batch",
        str(runs),
        *OPTS,
        "--out",
        str(out),
        "--jobs",
        "2",
        *more,
    ]


def index_of(out: Path) -> pd.DataFrame:
    return pd.read_csv(out / "index.csv", keep_default_na=False, na_values=[""])


def try_tmpfs(where: Path, size: str) -> bool:
    """Mount a tmpfs of `size` at `where` (a real full disk); False where this process may not."""
    where.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True
    )
    return done.returncode == 0


def test_a_batch_with_hostile_names_a_killed_worker_and_a_full_disk(tmp_path, monkeypatch):
    runs, out = tmp_path / "runs", tmp_path / "out"
    runs.mkdir()
    good = [
        f"run{i:02d}" for i in range(10)
    ]  # (good runs on both workers, before and after the two that fail)
    for name in good:
        shutil.copy(TITAN, runs / f"{name}.log")
    shutil.copy(TITAN, runs / "two\nlines.log")  # a newline in a name: the run is `two_lines`, one line
    good.append("two_lines")
    dollar = "lr_$1e-4_$"  # matplotlib's mathtext would read $1e-4_$ as math (and fail on it)
    shutil.copy(TITAN, runs / f"{dollar}.log")
    shutil.copy(TITAN, os.fsdecode(bytes(runs) + b"/caf\xe9.log"))  # not UTF-8
    shutil.copy(TITAN, runs / "killme.log")
    shutil.copy(TITAN, runs / "fulldisk.log")

    # the worker analyzing killme.log is killed mid-run (SIGKILL: what the OOM killer sends); the pool's
    # workers are forked from this process, so they run this wrapper
    analyze = logparse.api.analyze

    def killing(path, **kw):
        if "killme" in str(path):
            os.kill(os.getpid(), signal.SIGKILL)
        return analyze(path, **kw)

    monkeypatch.setattr(logparse.api, "analyze", killing)
    # fulldisk's output folder is a 64 KiB file system: its steps.csv and report.png do not fit
    mounted = try_tmpfs(out / "fulldisk", "64k")
    if not mounted:  # no mount here: the write fails as a full disk does
        from logparse.report import outputs as report

        steps = report.write_steps

        def full(frame, path, kind=None):
            if "fulldisk" in str(path):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
            return steps(frame, path, kind)

        monkeypatch.setattr(report, "write_steps", full)
    try:
        res = run_apart(["batch", str(runs), *OPTS, "--out", str(out), "--jobs", "2"])
        index = index_of(out)
        leftovers = sorted(p.name for p in (out / "fulldisk").iterdir())
    finally:
        if mounted:
            subprocess.run(["umount", str(out / "fulldisk")], check=True)
    assert res.exit_code == 1
    assert len(index) == 15
    ok = index[index["status"] == "ok"]
    assert sorted(ok["run"]) == sorted([*good, dollar, "caf\ufffd"])
    assert (ok["steps"] == ok["steps"].iloc[0]).all() and ok["mfu"].notna().all()
    for name in ok["run"]:
        folder = out / name
        assert sorted(p.name for p in folder.iterdir()) == sorted(
            [".logparse-cache.json", "report.png", "steps.csv", "summary.json", "thumb.png"]
        ), name
    # the failures come first, each with its cause
    assert list(index["status"][:2]) == ["error", "error"]
    errors = dict(zip(index["run"][:2], index["error"][:2], strict=True))
    assert "killed by SIGKILL" in errors["killme"]
    assert "No space left on device" in errors["fulldisk"] and "fulldisk" in errors["fulldisk"]
    # the full disk left nothing cut behind: no summary, no temporary file, no cache entry
    assert leftovers == []
    assert "error: killme: the process analyzing it died" in res.stderr
    assert "Traceback" not in res.stderr and "internal error" not in res.stderr
    # every output line is one line: the names are printed whole
    assert f"ok     {dollar}: " in res.stdout and "ok     caf\ufffd: " in res.stdout
    assert len(res.stdout.splitlines()) == len(ok) + 1  # an ok line per good run, then the count
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "killme" in page and (out / "leaderboard.png").stat().st_size > 0
    json.loads((out / "index.json").read_text(encoding="utf-8"))  # UTF-8 JSON, whole


def test_an_internal_error_writing_one_run_is_its_row(tmp_path, monkeypatch):
    """An exception in writing (not only in the analysis) is the run's row; before, it ended the batch."""
    runs = tmp_path / "runs"
    runs.mkdir()
    for name in ("a", "b"):
        shutil.copy(TITAN, runs / f"{name}.log")
    from logparse.report import plots

    draw = plots.plot_report

    def broken(analysis, path, *a, **kw):
        if "a" == Path(str(analysis.summary["source"])).stem:
            raise ValueError("a plotting bug")
        return draw(analysis, path, *a, **kw)

    monkeypatch.setattr(plots, "plot_report", broken)
    out = tmp_path / "out"
    res = run_apart(["batch", str(runs), *OPTS, "--out", str(out), "--jobs", "1"])
    index = index_of(out).set_index("run")
    assert res.exit_code == 1
    assert index.loc["a", "status"] == "error" and "ValueError: a plotting bug" in index.loc["a", "error"]
    assert index.loc["b", "status"] == "ok"
    assert not (out / "a" / ".logparse-cache.json").exists()


KILLED_MID_WRITE = """
import os, sys
from logparse.report import outputs as report
write = report.write_steps
def cut(frame, path, kind=None):
    write(frame, path, kind)
    with open(path, "rb+") as fh:  # what the disk holds when the process dies midway
        fh.truncate(os.path.getsize(path) // 3)
    os.kill(os.getpid(), 9)
report.write_steps = cut
from logparse.cli import cli
cli(sys.argv[1:], prog_name="logparse")
"""


def test_a_force_killed_mid_write_is_redone_by_the_next_batch(tmp_path):
    runs, out = tmp_path / "runs", tmp_path / "out"
    runs.mkdir()
    shutil.copy(MEGATRON, runs / "train.log")
    argv = ["batch", str(runs), *OPTS, "--out", str(out), "--jobs", "1"]
    assert run_apart(argv).exit_code == 0
    whole = (out / "train" / "steps.csv").read_bytes()
    # again with --force, killed (SIGKILL, no clean-up) while it writes steps.csv
    killed = subprocess.run([sys.executable, "-c", KILLED_MID_WRITE, *argv, "--force"], capture_output=True)
    assert killed.returncode == -signal.SIGKILL
    # the file in place is the earlier whole one, never the cut one
    assert (out / "train" / "steps.csv").read_bytes() == whole
    res = run_apart(argv)
    assert res.exit_code == 0 and "(cached)" not in res.stdout  # the run is analyzed again, not served
    assert (out / "train" / "steps.csv").read_bytes() == whole
    assert not [p for p in (out / "train").iterdir() if ".tmp" in p.name]
    assert "(cached)" in run_apart(argv).stdout  # and cached once it is whole


def test_the_cache_key_covers_the_pattern_sets_and_logparse_patterns(tmp_path, monkeypatch):
    runs, out = tmp_path / "runs", tmp_path / "out"
    runs.mkdir()
    (runs / "mine.log").write_text("".join(f"step {i} took 1500 ms\n" for i in range(1, 41)))
    mine = tmp_path / "sets"
    mine.mkdir()

    def user_set(scale: float) -> str:
        return f"""
[format]
name = "mine"
description = "a user's set"
detect = ['^step \\d+ took']

[[line]]
name = "step"
kind = "step"
regex = '^step (?P<step>\\d+) took (?P<t>[\\d.]+) ms'
fields.step = {{ column = "step", type = "int" }}
fields.t = {{ column = "step_time_s", scale = {scale} }}

[[sample]]
line = "step 3 took 1500 ms"
pattern = "step"
expect = {{ step = 3, step_time_s = {1500 * scale} }}
"""

    (mine / "mine.toml").write_text(user_set(0.001))
    argv = ["batch", str(runs), "--out", str(out), "--jobs", "1", "--format", "mine"]

    def step_time(*extra: str) -> tuple[float, bool]:
        res = run_apart([*argv, *extra])
        assert res.exit_code == 0, res.stderr
        row = index_of(out).iloc[0]
        return float(row["step_time_s"]), bool(row["cached"])

    assert step_time("--patterns", str(mine)) == (1.5, False)
    assert step_time("--patterns", str(mine)) == (1.5, True)
    (mine / "mine.toml").write_text(user_set(0.002))  # the set's scale edited
    os.utime(mine / "mine.toml", ns=(1, 1))  # even with an old modification time
    assert step_time("--patterns", str(mine)) == (3.0, False)
    # the same set chosen by LOGPARSE_PATTERNS instead: another set of loaded files, another key
    (mine / "mine.toml").write_text(user_set(0.001))
    monkeypatch.setenv("LOGPARSE_PATTERNS", str(mine))
    assert step_time() == (1.5, False)
    assert step_time() == (1.5, True)
    other = tmp_path / "other"
    other.mkdir()
    (other / "mine.toml").write_text(user_set(0.002))
    monkeypatch.setenv("LOGPARSE_PATTERNS", str(other))
    assert step_time() == (3.0, False)


def _cached_run(tmp_path):
    """A batch of one run (torchtitan's sample) done once: its argv, --out, cache entry and the entry's JSON."""
    runs, out = tmp_path / "runs", tmp_path / "out"
    runs.mkdir()
    shutil.copy(TITAN, runs / "train.log")
    argv = ["batch", str(runs), *OPTS, "--out", str(out), "--jobs", "1"]
    assert run_apart(argv).exit_code == 0
    cache = out / "train" / ".logparse-cache.json"
    return argv, out, cache, json.loads(cache.read_text())


@pytest.mark.parametrize(
    "entry",
    [
        "[]",
        "null",
        '"text"',
        "{",
        '{"fingerprint": FP, "row": []}',
        '{"fingerprint": FP, "row": ROW_MANY_DIPS, "outputs": OUTPUTS}',
        '{"fingerprint": FP, "row": ROW, "outputs": {"summary.json": [1, 2]}}',
        "FOLDER",
    ],
)
def test_a_cache_entry_of_another_shape_is_ignored_and_the_run_redone(tmp_path, entry):
    argv, out, cache, good = _cached_run(tmp_path)
    assert "(cached)" in run_apart(argv).stdout  # the entry as written serves
    if entry == "FOLDER":
        cache.unlink()
        cache.mkdir()
    else:
        text = entry.replace("FP", json.dumps(good["fingerprint"])).replace(
            "OUTPUTS", json.dumps(good.get("outputs"))
        )
        text = text.replace("ROW_MANY_DIPS", json.dumps({**good["row"], "dips": "many"}))
        cache.write_text(text.replace("ROW", json.dumps(good["row"])))
    res = run_apart(argv)
    assert res.exit_code == 0, res.stderr
    assert "(cached)" not in res.stdout and "ok     train: " in res.stdout
    assert index_of(out).iloc[0]["dips"] == good["row"]["dips"]


def test_a_link_to_a_log_of_the_folder_is_not_a_second_run(tmp_path):
    runs, out = tmp_path / "runs", tmp_path / "out"
    (runs / "job42").mkdir(parents=True)
    shutil.copy(TITAN, runs / "job42" / "train.log")
    (runs / "latest.log").symlink_to("job42/train.log")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(MEGATRON, elsewhere / "target.log")
    (runs / "linked.log").symlink_to(elsewhere / "target.log")
    res = run_apart(["batch", str(runs), *OPTS, "--out", str(out), "--jobs", "1"])
    assert res.exit_code == 0, res.stderr
    index = index_of(out).set_index("run")
    # one run for job42's log (under its own path), one for the link out, named after the link
    assert sorted(index.index) == ["linked", "train"]
    assert index.loc["train", "source"] == str(runs / "job42" / "train.log")
    assert index.loc["linked", "source"] == f"{runs / 'linked.log'} -> {elsewhere / 'target.log'}"
    assert index.loc["linked", "format"] == "megatron"


def _children(pid: int) -> set[int]:
    kids: set[int] = set()
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except FileNotFoundError:  # the process has ended
        return kids
    for task in tasks:
        try:
            kids |= {int(k) for k in (task / "children").read_text().split()}
        except FileNotFoundError:  # a thread that ended after the listing
            continue
    return kids


def _gone(pids: set[int], within: float = 30.0) -> bool:
    """Every one of `pids` has ended (or is a zombie) within `within` seconds: a killed process is gone at once,
    a left-behind one sleeps for minutes, and a machine busy with other tests can take seconds to reap."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        alive = set()
        for pid in pids:
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
            except FileNotFoundError:
                continue
            if stat.rsplit(")", 1)[1].split()[0] != "Z":  # a zombie has ended
                alive.add(pid)
        if not alive:
            return True
        time.sleep(0.05)
    return False


RUNS = 12


def _as_a_terminal_starts_it() -> None:
    """Ctrl-C's default action, as in a job a terminal starts: a suite run in the background (`cmd &` in a script,
    nohup) hands its children SIGINT ignored, and Python then installs no KeyboardInterrupt handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _batch_with_workers(tmp_path: Path, runs_count: int = RUNS) -> tuple[subprocess.Popen, set[int]]:
    runs = tmp_path / "runs"
    runs.mkdir()
    for i in range(runs_count):
        shutil.copy(MEGATRON, runs / f"r{i:02d}.log")
    proc = subprocess.Popen(
        batch_command(runs, tmp_path / "out"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a shell job is
        preexec_fn=_as_a_terminal_starts_it,
    )
    end = time.monotonic() + 60
    while time.monotonic() < end and len(_children(proc.pid)) < 2:
        time.sleep(0.05)
    workers = _children(proc.pid)
    assert len(workers) >= 2, "the batch did not start its workers"
    return proc, workers


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT", "SIGKILL"])
def test_the_workers_end_with_the_batch(tmp_path, how):
    proc, workers = _batch_with_workers(tmp_path)
    try:
        assert proc.poll() is None, "the batch ended before it was signalled"
        if how == "SIGINT":  # Ctrl-C: the terminal sends it to the whole foreground group
            os.killpg(proc.pid, signal.SIGINT)
        else:
            os.kill(proc.pid, getattr(signal, how))
        proc.wait(timeout=60)
        assert _gone(workers), f"workers {workers} outlived the batch ({how})"
        stderr = proc.stderr.read()  # once the workers are gone (an orphan would hold the pipe open)
    finally:
        for pid in workers:  # never leave an orphan behind, whatever failed
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        proc.kill()
        proc.stdout.close()
        proc.stderr.close()
    if how == "SIGKILL":
        return
    assert proc.returncode == 130
    assert stderr.strip().splitlines() == ["error: interrupted"], stderr[:2000]
    # the index is written: the runs that finished, and the others marked as not analyzed
    index = index_of(tmp_path / "out")
    assert len(index) == RUNS
    missing = index[index["status"] != "ok"]
    assert (missing["error"] == "not analyzed: the batch was interrupted").all()


def test_a_run_that_fails_to_write_leaves_the_earlier_outputs_whole(tmp_path, monkeypatch):
    """analyze writing over earlier outputs: a failure midway leaves each file whole (the old one)."""
    from logparse.report import outputs as report

    out = tmp_path / "out"
    assert run_apart(["analyze", str(TITAN), *OPTS, "--out", str(out)]).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    steps = report.write_steps

    def half(frame, path, kind=None):
        steps(frame, path, kind)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(report, "write_steps", half)
    res = run_apart(["analyze", str(MEGATRON), *OPTS, "--out", str(out)])
    assert res.exit_code == 1
    assert res.stderr.strip() == f"error: {out / 'steps.csv'}: No space left on device"
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_batch_mod_source_is_shown_as_utf8():
    assert batch_mod.shown(os.fsdecode(b"runs/caf\xe9.log")) == "runs/caf\ufffd.log"


# Put first on the path of every Python process of a test (PYTHONPATH): the run named killme kills the
# process analyzing it, as the OOM killer would, whichever executor started that process.
KILLER = """
import os, signal
import logparse.api as api
_analyze = api.analyze
def analyze(path, **kw):
    if "killme" in str(path):
        os.kill(os.getpid(), signal.SIGKILL)
    return _analyze(path, **kw)
api.analyze = analyze
"""


def test_a_dask_worker_killed_by_its_run_is_that_runs_row(tmp_path):
    pytest.importorskip("distributed")
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(KILLER)
    runs, out = tmp_path / "runs", tmp_path / "out"
    runs.mkdir()
    for name in ("a", "b", "killme", "c"):
        shutil.copy(TITAN, runs / f"{name}.log")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
        # the scheduler gives up on a task after the first worker it killed (Dask's default tries 4); no other
        # run may fail with it: batch keeps one run per worker thread in flight, so none is queued behind killme
        # (given all four at once, Dask put two on each worker, and the one beside killme died too: 1 in 9 runs)
        "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0",
    }
    done = subprocess.run(
        batch_command(runs, out, "--executor", "dask"),
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 1, done.stderr[-3000:]
    index = index_of(out)
    assert list(index["run"]) == ["killme", "a", "b", "c"]  # the failure first
    assert list(index["status"]) == ["error", "ok", "ok", "ok"]
    assert "KilledWorker" in index["error"][0]
    assert "error: killme: its Dask task failed" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("change", [{"mfu": "<script>"}, {"out": "/etc"}, {"source": "/elsewhere/train.log"}])
def test_a_cached_row_with_a_value_of_the_wrong_kind_or_place_is_redone(tmp_path, change):
    """A cached row whose figure is a string (drawn as a number on the page: it raised) or whose folder or
    source is not this run's (index.json would show out=/etc) is not what batch wrote: the run is redone."""
    argv, out, cache, good = _cached_run(tmp_path)
    cache.write_text(json.dumps({**good, "row": {**good["row"], **change}}))
    res = run_apart(argv)
    assert res.exit_code == 0, res.stderr
    assert "(cached)" not in res.stdout and "ok     train: " in res.stdout
    row = index_of(out).iloc[0]
    assert row["out"] == good["row"]["out"] and row["mfu"] == pytest.approx(good["row"]["mfu"])


def test_a_disk_too_full_for_the_index_still_names_each_failure(tmp_path, monkeypatch):
    """When the index itself cannot be written (the disk is full), the failures are printed one a line
    before the index's error: nothing else would name them."""
    runs, out = tmp_path / "runs", tmp_path / "out"
    runs.mkdir()
    shutil.copy(TITAN, runs / "good.log")
    (runs / "broken.log").write_text(cut_before_its_first_step())
    from logparse.batch import engine

    def full(out_dir, index):
        raise engine.LogparseError(f"cannot write the index {out_dir}/index.csv: No space left on device")

    monkeypatch.setattr(engine, "write_index", full)
    res = run_apart(["batch", str(runs), *OPTS, "--out", str(out), "--jobs", "1"])
    assert res.exit_code == 1
    lines = res.stderr.strip().splitlines()
    assert lines[0].startswith("error: broken: ") and "no training step lines" in lines[0]
    assert lines[-1].startswith("error: cannot write the index") and "No space left on device" in lines[-1]


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"row": ' + "[" * 5000 + "]" * 5000 + "}"])
def test_a_cache_file_nested_thousands_deep_is_no_entry(tmp_path, text):
    """json raised RecursionError on it, and that was the run's error; now it is an entry to ignore."""
    out = tmp_path / "out"
    out.mkdir()
    (out / batch_mod.CACHE_FILE).write_text(text)
    job = batch_mod.RunJob("train", (str(TITAN),), str(out), {})
    assert batch_mod._cached_row(job, "fp") is None
