"""Every text logparse draws is text, never math or LaTeX: a `$` in a log's name
(`lr_$1e-4_$.log`) was read by matplotlib's mathtext and raised (an `internal error` for the whole batch), and a
name between two `$` was silently drawn as math. Each figure (report.png, leaderboard.png, a compare plot) is
drawn for runs named with `$`, `_`, `^`, `{}`, `\\`, U+FFFD, an undecodable byte and a long name; its Text
objects are read after savefig: the name is drawn literally and no text is parsed as math."""

from __future__ import annotations

import os

import matplotlib
import pandas as pd
import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

from logparse import api
from logparse.batch.compare import compare_runs
from logparse.batch.page import write_leaderboard
from logparse.report.outputs import write_outputs
from tests import synth

# names a log file can have (no path separator); '$...$' is the one that raised or drew math before
FILE_NAMES = ["lr_$1e-4_$", "a_$x^2$_b", "w{1}_^", "caf\ufffd", "long_" + "x" * 200]
# names an index row can carry: a backslash too (a lone surrogate cannot be in a pandas string column)
ROW_NAMES = [*FILE_NAMES, r"$\frac{1}{0$"]


def shown(name: str) -> str:
    """The name as drawn: a lone surrogate becomes U+FFFD, everything else literal."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def texts(fig: Figure) -> list[Text]:
    return [t for t in fig.findobj(Text) if t.get_text()]


def assert_plain(fig: Figure) -> None:
    """No text of the figure is math or LaTeX: matplotlib's own decision (_preprocess_math) says not math."""
    for t in texts(fig):
        assert not t.get_parse_math() and not t.get_usetex(), t.get_text()
        assert t._preprocess_math(t.get_text()) == (t.get_text(), False)


def drawn_strings(fig: Figure) -> list[str]:
    return [t.get_text() for t in texts(fig)]


@pytest.fixture(scope="module")
def log_text() -> str:
    text, _ = synth.megatron_log(
        synth.Spec(steps=30, gpus=8, global_batch=128, log_interval=1, warmup=5, seed=3)
    )
    return text


@pytest.mark.parametrize("name", FILE_NAMES)
def test_report_png_draws_the_name_as_text(tmp_path, saved, log_text, name):
    log = tmp_path / f"{name}.log"
    log.write_text(log_text)
    a = api.analyze(str(log), hw="h100")
    assert a.summary["run"] == name
    write_outputs(a, tmp_path / "out")
    assert (tmp_path / "out" / "report.png").stat().st_size > 0
    (fig,) = saved
    assert_plain(fig)
    assert any(s.startswith(name + "  |  ") for s in drawn_strings(fig))  # the title, name literal


def test_a_user_usetex_setting_is_not_used(tmp_path, saved, log_text):
    """A notebook with `text.usetex: True` in its matplotlibrc: a name with `_`, `$` or `^` is no LaTeX."""
    log = tmp_path / "lr_$1e-4_$.log"
    log.write_text(log_text)
    with matplotlib.rc_context({"text.usetex": True, "text.parse_math": True}):
        fig = api.analyze(str(log), hw="h100").plot(tmp_path / "r.png")
    assert (tmp_path / "r.png").stat().st_size > 0
    assert saved == [fig]
    assert_plain(fig)


def test_a_report_figure_drawn_later_stays_text(tmp_path, log_text):
    """Analysis.plot() hands the figure to a notebook, which draws it outside logparse: its texts, tick
    labels made at that draw included, are still text."""
    log = tmp_path / "lr_$1e-4_$.log"
    log.write_text(log_text)
    fig = api.analyze(str(log), hw="h100").plot()
    fig.canvas.draw()
    assert_plain(fig)


def test_leaderboard_draws_the_names_and_errors_as_text(tmp_path, saved):
    rows = [
        {
            "run": n,
            "status": "ok",
            "mfu": 0.3 + i / 100,
            "stable_start": 10,
            "stable_end": 90,
            "hardware": "H$100",
        }
        for i, n in enumerate(ROW_NAMES)
    ]
    rows += [{"run": n + "_failed", "status": "error", "error": f"costs $5 and $6: {n}"} for n in ROW_NAMES]
    write_leaderboard(tmp_path, pd.DataFrame(rows))
    (fig,) = saved
    assert_plain(fig)
    strings = drawn_strings(fig)
    for n in ROW_NAMES:
        short = shown(n) if len(n) <= 44 else shown(n)[:43] + "\u2026"  # page._short
        assert short in strings  # a bar's tick label
        assert any(s.startswith(short[:-1]) and "costs $5 and $6" in s for s in strings)  # a failure's line
    assert any("H$100" in s for s in strings)


def test_compare_plot_draws_the_labels_as_text(tmp_path, saved, log_text):
    logs = []
    for _i, name in enumerate(FILE_NAMES):
        log = tmp_path / f"{name}.log"
        log.write_text(log_text)
        logs.append(log)
    # a --label can also carry a lone surrogate (argv decoded with surrogate escapes), which matplotlib's
    # font layer refuses (TypeError): drawn as U+FFFD
    labels = [r"$\frac{1}{0$", "caf" + os.fsdecode(b"\xe9"), "a_b^{c}", "$x$", "\\"]
    res = compare_runs(
        logs, output=tmp_path / "c.png", options={"hw": "h100"}, metrics=["mfu"], labels=labels
    )
    assert res.png.stat().st_size > 0
    (fig,) = saved
    assert_plain(fig)
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert [s.split(": stable")[0] for s in legend] == [shown(x) for x in labels]


def test_a_batch_with_a_dollar_name_and_an_undecodable_name_analyzes_both(tmp_path, log_text):
    """The issue's two names through `logparse batch`: each run is analyzed, its report.png and the
    leaderboard drawn, exit 0 (a `$` name was an `internal error` and stopped the batch)."""
    from click.testing import CliRunner

    from logparse.cli import cli

    runs = tmp_path / "runs"
    runs.mkdir()
    for raw in (b"lr_$1e-4_$.log", b"caf\xe9.log"):
        (runs / os.fsdecode(raw)).write_text(log_text)
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["batch", str(runs), "--hw", "h100", "--jobs", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    index = pd.read_csv(out / "index.csv")
    assert sorted(index["run"]) == sorted(["lr_$1e-4_$", "caf\ufffd"]) and set(index["status"]) == {"ok"}
    for name in index["run"]:
        assert (out / name / "report.png").stat().st_size > 0
    assert (out / "leaderboard.png").stat().st_size > 0 and (out / "index.html").stat().st_size > 0
