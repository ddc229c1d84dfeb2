"""Shared fixtures: paths to the shipped sample logs and a writer for generated ones."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import pytest

# A machine that forbids bytecode caches (PYTHONDONTWRITEBYTECODE) makes every logparse process the tests start
# compile the package from source again (0.3 s each, over ~150 processes) and pytest rewrite each test module's
# asserts again in each worker. The tests' own processes write them, into the __pycache__ folders git ignores.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# the pattern sets' disk cache (patterns/diskcache.py) of the tests: not the user's; kept between runs (its keys are
# contents, so an entry is never stale)
os.environ.setdefault(
    "LOGPARSE_CACHE_DIR", str(Path(tempfile.gettempdir()) / f"logparse-test-cache-{os.getuid()}")
)

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_logs"


def cut_before_its_first_step() -> str:
    """A training log cut before its first logged step (Megatron-LM's argument dump only): recognised, with
    nothing to analyze; in a batch, a failed run (a file that is not a training log is skipped instead)."""
    return "".join((SAMPLES / "megatron_llama2-7b_8xh100.log").read_text().splitlines(keepends=True)[:40])


# the checks that read a log's outputs as tests/test_outputs_unchanged.py made() makes them once a process, after
# the record's check of the same log
FOLLOW_THE_RECORD = ("test_the_text_counts_agree_with_steps_csv_and_the_summary",)
RECORD = "test_outputs_are_byte_identical_to_the_record"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each log's checks that read its outputs run right after the record's check of that log: xdist sends
    a worker consecutive tests, so the pair runs in one process and the log is analysed once, not twice (the
    analyses of ~440 cases cost ~25 s of CPU)."""
    following: dict[str, list[pytest.Item]] = {}
    for item in items:
        if getattr(item, "originalname", None) in FOLLOW_THE_RECORD:
            following.setdefault(item.callspec.id, []).append(item)
    if not following:
        return
    moved = {id(item) for group in following.values() for item in group}
    ordered: list[pytest.Item] = []
    for item in items:
        if id(item) in moved:
            continue
        ordered.append(item)
        if getattr(item, "originalname", None) == RECORD:
            ordered += following.pop(item.callspec.id, [])
    ordered += [item for group in following.values() for item in group]  # (their record's check not run)
    items[:] = ordered


@pytest.fixture
def sample() -> callable:
    def get(name: str) -> Path:
        path = SAMPLES / name
        assert path.exists(), path
        return path

    return get


@pytest.fixture
def write_log(tmp_path: Path) -> callable:
    """Write text (or bytes) to a file in tmp_path and return its path."""

    def write(text: str | bytes, name: str = "train.log") -> Path:
        path = tmp_path / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text)
        return path

    return write


def trainer_state(name: str) -> dict:
    return json.loads((SAMPLES / name).read_text())


# A small valid user pattern set (a step line with its sample), for tests that need one to load or to break
TOY_SET = """\
[format]
name = "toy"
detect = ['^toy step']

[[line]]
name = "iteration"
kind = "step"
regex = '^toy step (?P<step>\\d+) took (?P<ms>[\\d.]+) ms'
fields.ms = { column = "step_time_s", scale = 0.001 }

[[sample]]
line = "toy step 3 took 1500 ms"
expect = { step = 3, step_time_s = 1.5 }
"""


def run_apart(argv: list[str]):
    """Run the CLI as `logparse ARGV` would, in this process, stdout and stderr kept apart. An
    exception escaping the command is raised here (catch_exceptions=False), so it cannot pass for a
    clean exit 1."""
    from click.testing import CliRunner

    from logparse.cli import cli

    try:
        runner = CliRunner(mix_stderr=False)  # click 8.1
    except TypeError:  # click >= 8.2 always keeps stderr apart
        runner = CliRunner()
    return runner.invoke(cli, argv, prog_name="logparse", catch_exceptions=False)


_LITTER = ("logparse-out", "compare.png", "compare.csv")  # what a command run without --out / -o writes


@pytest.fixture(autouse=True, scope="session")
def _the_checkout_stays_clean():
    """No test writes a command's default output into the checkout (a missing --out or -o)."""
    before = {name for name in _LITTER if (ROOT / name).exists()}
    yield
    after = {name for name in _LITTER if (ROOT / name).exists()}
    assert after <= before, f"a test wrote {sorted(after - before)} into {ROOT}: give it --out / -o tmp_path"


@pytest.fixture
def saved(monkeypatch):
    """The matplotlib figures savefig wrote, in order (after their draw: tick labels exist only then)."""
    from matplotlib.figure import Figure

    from logparse.report import drawing, plots

    # drawn in this process: the command would draw a report in a forked one (drawing.Drawer, drawing.apart)
    monkeypatch.setattr(drawing, "may_fork", lambda: False)
    # and left as drawn: a written report's figure is otherwise wiped for the next one (plots._Skeleton)
    monkeypatch.setattr(plots._Skeleton, "keep", classmethod(lambda cls, fig: None))
    figures: list[Figure] = []
    real = Figure.savefig

    def savefig(self, *args, **kwargs):
        real(self, *args, **kwargs)
        figures.append(self)

    monkeypatch.setattr(Figure, "savefig", savefig)
    return figures


def batch_with_a_broken_run(tmp: Path, names: tuple[str, ...], *options: str) -> Path:
    """`logparse batch` (in this process, through the command) over sample logs `names` and a broken log, into
    tmp/out: it writes the page itself, and exits 1 for the broken run after the others."""
    import shutil

    from click.testing import CliRunner

    from logparse.cli import cli

    runs = tmp / "runs"
    runs.mkdir()
    for name in names:
        shutil.copy(ROOT / "sample_logs" / f"{name}.log", runs / f"{name}.log")
    (runs / "broken.log").write_text(cut_before_its_first_step())
    out = tmp / "out"
    res = CliRunner().invoke(cli, ["batch", str(runs), *options, "--jobs", "1", "--out", str(out)])
    assert res.exit_code == 1 and "broken" in res.output
    return out
