"""`logparse analyze` stopped by SIGTERM (`kill`, a scheduler's stop) cleans up and says so in one line.

SIGTERM's default action ended the process at once: its `.steps.PID.tmp.csv` stayed behind, the forked process
writing it went on alone, and nothing was said. Now the signal is raised where it arrives, as Ctrl-C is: the
forked writers are stopped, every temporary file removed, and the command prints `error: interrupted (SIGTERM)`
and exits 143 (128 + 15, as a shell reports a process a signal ended).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import SAMPLES
from .test_batch_faults import _children, _gone

# analyze with steps.csv written by a forked writer (StepsAhead) that holds its file open, half written, until it
# is stopped: the moment a SIGTERM finds a large run's analysis in
SLOW_WRITER = """
import sys, time
from logparse.report import outputs
outputs.DRAW_APART_ROWS = 10
def slow(frame, path, *args, **kwargs):
    with open(path, "w") as fh:
        fh.write("step,loss\\n")
        fh.flush()
        time.sleep(300)
outputs.write_steps = slow
from logparse.cli import cli
cli(sys.argv[1:], prog_name="logparse")
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_sigterm_mid_write_removes_the_temporary_files_stops_the_writer_and_says_so(tmp_path):
    out, errors = tmp_path / "out", tmp_path / "stderr.txt"
    with open(errors, "w") as err:  # (a file, not a pipe: a writer left running would hold a pipe open)
        proc = subprocess.Popen(
            [sys.executable, "-c", SLOW_WRITER, "analyze", str(SAMPLES / "megatron_llama2-7b_8xh100.log"), "--hw",
             "h100", "--out", str(out)],
            stdout=subprocess.DEVNULL,
            stderr=err,
        )  # fmt: skip
    children: set[int] = set()
    try:
        end = time.monotonic() + 120
        while time.monotonic() < end and not list(out.glob(".steps.*.tmp.csv")):
            assert proc.poll() is None, errors.read_text()
            time.sleep(0.05)
        assert list(out.glob(".steps.*.tmp.csv")), "the writer never started"
        children = _children(proc.pid)
        assert children, "no forked writer"
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        assert _gone(children), f"the writer {children} outlived the command"
    finally:
        for pid in children | _children(proc.pid):  # never leave a writer behind, whatever failed
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        proc.kill()
        proc.wait()
    assert proc.returncode == 128 + signal.SIGTERM
    stderr = errors.read_text()
    assert stderr.splitlines() == ["error: interrupted (SIGTERM)"], stderr[-2000:]
    left = sorted(p.name for p in out.iterdir()) if out.exists() else []
    assert left == []  # no temporary file, no half-written output
