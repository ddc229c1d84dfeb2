"""compare: the reference run (--ref, default the first run with the metric), MFU deltas in
percentage points, restart time apart from dip time, the time-axis line only with --x time, clipped points
marked, a figure whose title and labels fit, a run without a FLOPs count named as such, and an MFU panel
that says why it is empty."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from click.testing import CliRunner
from matplotlib.backends.backend_agg import FigureCanvasAgg

from logparse import api
from logparse.batch.compare import compare_runs
from logparse.cli import cli
from logparse.core.errors import cli_names
from logparse.report.outputs import write_outputs
from tests.conftest import SAMPLES


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """analyze folders: an HF DDP run (no model: no MFU), the Megatron 7B run (MFU 45.0%), torchtitan's
    (31.7%), the resumed Megatron run (a restart) and the Megatron run without --hw (no peak)."""
    root = tmp_path_factory.mktemp("c22")
    out = {}
    for name, log, hw in (
        ("hf", "hf_trainer_ddp2_cpu.log", "h100"),
        ("meg", "megatron_llama2-7b_8xh100.log", "h100"),
        ("tt", "torchtitan_llama3-8b_8xh100.log", "h100"),
        ("res", "megatron_resumed_8xh100.log", "h100"),
        ("nohw", "megatron_llama2-7b_8xh100.log", None),
        ("light", "lightning_ga4_cpu.log", "h100"),  # no model: summary formula null
    ):
        write_outputs(api.analyze(str(SAMPLES / log), **({"hw": hw} if hw else {})), root / name)
        out[name] = root / name
    return out


def run_cli(*args):
    res = CliRunner().invoke(cli, ["compare", *map(str, args)])
    assert res.exit_code == 0, res.output
    return res.output


def rows(output: str) -> dict[str, str]:
    return {line.split()[0]: line for line in output.splitlines() if line.strip()}


def test_the_reference_is_the_first_run_with_an_mfu_and_mfu_deltas_are_points(folders, tmp_path):
    # hf has no MFU: the reference is meg (45.0%); tt's change is the difference in points, not a ratio
    out = run_cli(folders["hf"], folders["meg"], folders["tt"], "-o", tmp_path / "c.png")
    r = rows(out)
    mfu = {
        name: json.loads((folders[name] / "summary.json").read_text())["stable"]["mfu_mean"]
        for name in folders
    }
    assert mfu["tt"] < mfu["meg"]
    points, ratio = 100 * (mfu["tt"] - mfu["meg"]), 100 * (mfu["tt"] / mfu["meg"] - 1)
    assert f"{points:+.1f} pt" in r["tt"] and f"{ratio:+.1f}%" not in r["tt"]
    assert r["meg"].split().count("ref") >= 1
    # step time: hf has one, so it is the step-time reference; MFU and tok/s/GPU are against meg
    assert "reference: MFU meg; tok/s/GPU meg; step time hf" in out
    table = pd.read_csv(tmp_path / "c.csv").set_index("run")
    assert table.loc["tt", "mfu_change_pt"] == pytest.approx(
        100 * (table.loc["tt", "mfu"] - table.loc["meg", "mfu"]), abs=1e-9
    )


def test_ref_chooses_the_reference(folders, tmp_path):
    out = run_cli(folders["meg"], folders["tt"], "--ref", "tt", "-o", tmp_path / "c.png")
    mfu = {
        name: json.loads((folders[name] / "summary.json").read_text())["stable"]["mfu_mean"]
        for name in folders
    }
    assert f"{100 * (mfu['meg'] - mfu['tt']):+.1f} pt" in rows(out)["meg"] and "reference: tt" in out
    res = CliRunner().invoke(
        cli, ["compare", str(folders["meg"]), "--ref", "nope", "-o", str(tmp_path / "d.png")]
    )
    assert res.exit_code != 0 and "--ref" in res.output and "Traceback" not in res.output


def test_restart_time_is_shown_apart_from_dip_time(folders, tmp_path):
    # megatron_resumed: one restart after step 340 resumed from 300, 872.7 s lost (summary restarts[0]), no dip
    out = run_cli(folders["res"], "-o", tmp_path / "c.png")
    assert "restarts lost s" in out and "872.7" in rows(out)["res"]
    table = pd.read_csv(tmp_path / "c.csv").set_index("run")
    assert table.loc["res", "restart_lost_s"] == pytest.approx(872.7, abs=0.05)
    assert table.loc["res", "dip_lost_s"] == 0


def test_no_time_axis_line_without_a_time_axis(folders, tmp_path):
    assert "time axis from" not in run_cli(folders["meg"], "-o", tmp_path / "c.png")
    assert "time axis from" in run_cli(folders["meg"], "--x", "time", "-o", tmp_path / "t.png")


def _render(fig):
    FigureCanvasAgg(fig).draw()
    return fig.canvas.get_renderer()


def test_points_off_the_axis_are_marked(folders, tmp_path):
    # the Megatron run's first steps (MFU a few %) lie below the 1st-99th percentile range
    res = compare_runs([folders["meg"]], output=tmp_path / "c.png", metrics=["mfu"])
    lo, _ = res.ylims["mfu"]
    assert (res.curves["mfu"]["meg"]["raw"] < lo).any()
    ax = res.figure.axes[0]
    marks = [a for a in ax.get_children() if a.get_gid() == "clipped"]
    assert marks, "no marker for the points below the axis"
    assert any("below the axis" in t.get_text() for t in ax.texts)


def test_five_panel_time_figure_fits_its_title_and_labels(folders, tmp_path):
    metrics = ["mfu", "loss", "lr", "grad_norm", "step_time_s"]
    res = compare_runs(
        [folders["hf"], folders["meg"], folders["tt"], folders["res"]],
        x="time",
        output=tmp_path / "c.png",
        metrics=metrics,
    )
    fig = res.figure
    r = _render(fig)
    title = fig._suptitle.get_window_extent(r)
    top = fig.axes[0].get_tightbbox(r)
    assert title.y0 >= top.y1, "the title overlaps the top panel"
    for ax in fig.axes:
        box = ax.yaxis.label.get_window_extent(r)
        assert box.x0 >= 0, f"{ax.get_ylabel()!r} is cut off at the left edge"
    assert title.x1 <= fig.bbox.x1


def test_a_run_without_a_flops_formula_is_named_not_none(folders, tmp_path):
    # the Lightning run has no model (formula null), Megatron's uses palm: the title names both
    res = compare_runs([folders["light"], folders["meg"]], output=tmp_path / "c.png", metrics=["loss"])
    title = res.figure._suptitle.get_text()
    assert "None" not in title and "palm (meg)" in title and "no FLOPs count, model unknown: light" in title


def test_an_empty_mfu_panel_says_why(folders, tmp_path):
    with cli_names():  # options named as the command line names them
        res = compare_runs([folders["nohw"]], output=tmp_path / "c.png", metrics=["mfu"])
    ax = res.figure.axes[0]
    texts = " ".join(t.get_text() for t in ax.texts)
    assert "--hw NAME" in texts and "peak" in texts
    assert ax.get_ylim() != pytest.approx((-0.04, 0.04)) and not len(ax.get_yticklabels())
