"""Start-up: report.png drawn in another process (report/drawing.py) is the report drawn here, byte for
byte, and a failure there is the same error here.

`Drawer` is forked when `analyze` starts (it imports matplotlib while the log is read, and draws a small run's
report); `_apart` forks when a large run's outputs are written (the report is drawn while steps.csv is). A
process with other threads never forks (a lock one of them held would be inherited), so each case runs in a
fresh interpreter (pytest-xdist's workers have threads).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from tests.conftest import SAMPLES

SAMPLE = SAMPLES / "megatron_llama2-7b_8xh100.log"


def _run(code: str, tmp_path: Path) -> subprocess.CompletedProcess:
    script = tmp_path / "case.py"
    script.write_text(textwrap.dedent(code))
    return subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )


def test_a_report_drawn_by_the_drawer_or_apart_is_the_one_drawn_here(tmp_path):
    done = _run(
        f"""
        from logparse import api
        from logparse.report import drawing, outputs
        drawer = drawing.Drawer.start()
        assert drawer is not None
        a = api.analyze({str(SAMPLE)!r}, gpus=8, hw="h100")
        outputs.write_outputs(a, "drawer", drawer)
        drawer.close()
        outputs.write_outputs(a, "here")
        outputs.DRAW_APART_ROWS = 1  # a "large" run: drawn by a fork while steps.csv is written
        outputs.write_outputs(a, "apart")
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    here = (tmp_path / "here" / "report.png").read_bytes()
    assert len(here) > 50_000
    assert (tmp_path / "drawer" / "report.png").read_bytes() == here
    assert (tmp_path / "apart" / "report.png").read_bytes() == here
    for name in ("steps.csv", "summary.json"):
        assert (tmp_path / "drawer" / name).read_bytes() == (tmp_path / "here" / name).read_bytes()


def test_a_failure_in_the_other_process_is_the_same_error_here(tmp_path):
    done = _run(
        """
        import os
        from logparse.report import drawing

        def full(path):
            raise OSError(28, "No space left on device", path)

        wait = drawing.apart(full, "/somewhere/report.png")
        try:
            wait()
        except OSError as exc:
            print("apart:", exc.errno, exc.filename)

        drawer = drawing.Drawer.start()
        wait = drawer.draw({"not": "an analysis"}, "/somewhere/report.png")
        try:
            wait()
        except Exception as exc:
            print("drawer:", type(exc).__name__)
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "apart: 28 /somewhere/report.png" in done.stdout
    assert (
        "drawer: " in done.stdout
    )  # what plot_report raises on a dict: an error, not a hang or a silent pass


def test_a_drawer_with_nothing_to_draw_ends_and_the_cli_leaves_no_process(tmp_path):
    done = _run(
        """
        import os, time
        from logparse.report import drawing
        drawer = drawing.Drawer.start()
        pid = drawer.pid
        started = time.perf_counter()
        drawer.close()
        drawer.close()  # twice: harmless
        try:
            os.kill(pid, 0)
            print("alive")
        except ProcessLookupError:
            print("gone", round(time.perf_counter() - started, 1))
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("gone")
    # the command: an analysis that fails after the drawer started exits with its one line, and no child stays
    failed = subprocess.run(
        [sys.executable, "-m", "logparse", "analyze", str(tmp_path / "missing.log")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert failed.returncode == 1 and failed.stderr.startswith("error: ")
    assert "Traceback" not in failed.stderr


def test_a_report_is_drawn_from_its_figures_in_a_process_without_pandas(tmp_path):
    """The drawer is forked before pandas is imported and never imports it (pandas' import in the
    command's process and matplotlib's in the drawer's run side by side): what it is sent (gather.report_data)
    unpickles and draws with numpy and matplotlib alone, into the report drawn from the Findings here."""
    made = _run(
        f"""
        import pickle
        from logparse import api
        from logparse.report import gather, plots
        a = api.analyze({str(SAMPLE)!r}, gpus=8, hw="h100")
        plots.plot_report(a, "here.png")
        with open("figures.pickle", "wb") as fh:
            pickle.dump(gather.report_data(a), fh)
        """,
        tmp_path,
    )
    assert made.returncode == 0, made.stderr
    drawn = _run(
        """
        import pickle, sys
        from logparse.report import drawing, plots
        with open("figures.pickle", "rb") as fh:
            figures = pickle.load(fh)
        plots.plot_report(figures, "there.png")
        print(sorted(name for name in ("pandas", "pyarrow", "scipy") if name in sys.modules))
        """,
        tmp_path,
    )
    assert drawn.returncode == 0, drawn.stderr
    assert drawn.stdout.strip() == "[]"
    assert (tmp_path / "there.png").read_bytes() == (tmp_path / "here.png").read_bytes()


def test_the_command_forks_its_drawer_before_pandas_is_imported(tmp_path):
    """What `analyze` has imported when it starts the drawer (cli._analyze_each): no pandas yet."""
    done = _run(
        """
        import sys
        from logparse import cli
        from logparse.report import drawing
        print("pandas" in sys.modules, "matplotlib" in sys.modules)
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False"]


def test_the_command_keeps_numpy_and_pyarrow_from_fresh_memory_unless_the_user_says_otherwise(tmp_path):
    """Importing the command sets numpy's huge-page advice off and pyarrow's pool to the system
    allocator, before either is imported (each reads its variable once, then); a variable the user set stays."""
    import os

    code = """
    import os
    from logparse import cli
    import numpy, pyarrow
    print(os.environ["NUMPY_MADVISE_HUGEPAGE"], pyarrow.default_memory_pool().backend_name)
    """
    script = tmp_path / "case.py"
    script.write_text(textwrap.dedent(code))
    ours = ("NUMPY_MADVISE_HUGEPAGE", "ARROW_DEFAULT_MEMORY_POOL")
    base = {k: v for k, v in os.environ.items() if k not in ours}
    for extra, want in (
        ({}, ["0", "system"]),
        ({"NUMPY_MADVISE_HUGEPAGE": "1", "ARROW_DEFAULT_MEMORY_POOL": "mimalloc"}, ["1", "mimalloc"]),
    ):
        done = subprocess.run(
            [sys.executable, str(script)], capture_output=True, text=True, timeout=120, env={**base, **extra}
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == want


def test_steps_csv_written_ahead_is_the_one_written_here(tmp_path):
    """A large run's steps.csv is written by a fork from when its step frame is final (outputs.StepsAhead, started
    by the command after the phases), while the ledger, summary and report are made: the same three files as
    those written after the analysis, in one process."""
    done = _run(
        f"""
        import os
        from logparse import cli
        from logparse.report import outputs
        outputs.DRAW_APART_ROWS = 1  # every run "large"
        write = outputs._write_public
        def marked(steps, path):
            open("ahead-used", "w").close()
            write(steps, path)
        outputs._write_public = marked
        cli.cli(["analyze", {str(SAMPLE)!r}, "--gpus", "8", "--hw", "h100", "--out", "ahead", "-q"], standalone_mode=False)
        outputs.DRAW_APART_ROWS = 10**9
        cli.cli(["analyze", {str(SAMPLE)!r}, "--gpus", "8", "--hw", "h100", "--out", "here", "-q"], standalone_mode=False)
        print(sorted(os.listdir("ahead")))
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "ahead-used").exists()
    assert (
        done.stdout.split("\n")[-2] == "['report.png', 'steps.csv', 'summary.json']"
    )  # (no temporary file left)
    for name in ("steps.csv", "summary.json", "report.png"):
        assert (tmp_path / "ahead" / name).read_bytes() == (tmp_path / "here" / name).read_bytes(), name


def test_an_analysis_that_fails_after_its_csv_was_started_leaves_nothing(tmp_path):
    """The CSV's fork is stopped, its file removed, and the folder the command made for it too, when the analysis
    fails after the phases (a refusal, an error); no child process is left."""
    done = _run(
        f"""
        import os
        from logparse import api, cli
        from logparse.core.errors import LogparseError
        from logparse.report import outputs
        outputs.DRAW_APART_ROWS = 1
        def refused(*args):
            raise LogparseError("refused after the phases")
        api.build_ledger = refused
        for out in ("new/out", "kept"):
            if out == "kept":
                os.makedirs("kept")
            try:
                cli.cli(["analyze", {str(SAMPLE)!r}, "--out", out, "-q"], standalone_mode=False)
            except SystemExit as exc:
                print("exit", exc.code)
        print(os.path.exists("new/out"), os.listdir("kept"))
        try:
            print("child", os.waitpid(-1, os.WNOHANG))
        except ChildProcessError:
            print("no child")
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == ["error: refused after the phases"] * 2
    lines = done.stdout.splitlines()
    assert lines[:2] == ["exit 1"] * 2
    assert lines[2] == "False []"  # (the folder it made removed; one that was there kept, empty)
    assert lines[3] == "no child"
