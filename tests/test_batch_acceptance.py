"""A folder of past runs from four families, each with its own hardware, through `logparse batch`.

Six runs: Megatron-LM with a sidecar (`logparse.toml`: 8 x H100), torchtitan whose log names its GPU (a
`CUDA capacity:` line) and nanoGPT whose log prints an nvidia-smi table (no `--hw` anywhere for either; their
sidecars give only the model), DeepSpeed (sidecar: A100, sequence length, model), a Megatron run restarted
across two files, and a broken file. Expected MFUs are the generated samples' truth files (computed from
tests/reference_flops.py, not by logparse).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from logparse.cli import cli

from .conftest import SAMPLES, cut_before_its_first_step
from .test_hardware_from_log import CAPACITY, NANOGPT, TITAN, _smi_new, _with
from .test_page import needs_chromium, parse, run_chromium

TRUTH = {
    "megatron": "megatron_llama2-7b_8xh100",
    "titan": TITAN.removesuffix(".log"),
    "nanogpt": NANOGPT.removesuffix(".log"),
    "deepspeed": "deepspeed_ga8_8xa100",
    "resumed_train": "megatron_resumed_8xh100",
}


def _truth_mfu(run: str) -> float:
    return json.loads((SAMPLES / f"{TRUTH[run]}.truth.json").read_text())["stable_mfu"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("acceptance") / "runs"

    def put(folder: str, name: str, text: str, sidecar: str | None) -> None:
        d = root / folder
        d.mkdir(parents=True, exist_ok=True)
        (d / name).write_text(text)
        if sidecar is not None:
            (d / "logparse.toml").write_text(sidecar)

    put(
        "megatron",
        "train.log",
        (SAMPLES / "megatron_llama2-7b_8xh100.log").read_text(),
        'gpus = 8\nhw = "h100"\n',
    )
    put("titan", "train.log", _with(TITAN, [CAPACITY], after=2), 'model = "llama3-8b"\n')
    put("nanogpt", "train.log", _with(NANOGPT, _smi_new("NVIDIA A100-SXM4-80GB", 8)), 'model = "gpt2"\n')
    put(
        "deepspeed",
        "train.log",
        (SAMPLES / "deepspeed_ga8_8xa100.log").read_text(),
        'hw = "a100"\nseq_len = 4096\nmodel = "llama2-7b"\n',
    )
    resumed = (SAMPLES / "megatron_resumed_8xh100.log").read_text().splitlines(keepends=True)
    put("resumed", "train-0.log", "".join(resumed[:400]), 'gpus = 8\nhw = "h100"\n')
    put("resumed", "train-1.log", "".join(resumed[400:]), None)
    put("broken", "train.log", cut_before_its_first_step(), None)
    return root


def _batch(runs: Path, out: Path, *extra: str):
    return CliRunner().invoke(cli, ["batch", str(runs), "--jobs", "1", "--out", str(out), *extra])


@pytest.fixture(scope="module")
def first(runs, tmp_path_factory):
    out = tmp_path_factory.mktemp("out") / "batch"
    res = _batch(runs, out)
    return res, out, pd.read_csv(out / "index.csv").set_index("run")


def test_every_good_run_has_its_mfu_and_the_broken_one_is_named(first):
    res, _out, index = first
    assert res.exit_code == 1
    assert "broken_train" in res.output and "no training step lines" in res.output
    assert index.loc["broken_train", "status"] == "error"
    good = index[index["status"] == "ok"]
    assert sorted(good.index) == sorted(f"{k}_train" if k != "resumed_train" else k for k in TRUTH)
    for key in TRUTH:
        run = key if key == "resumed_train" else f"{key}_train"
        assert good.loc[run, "mfu"] == pytest.approx(_truth_mfu(key), abs=0.005), run
    # hardware from the log where no --hw was given; from the sidecar elsewhere
    assert good.loc["titan_train", "hardware"] == "h100-sxm"
    assert good.loc["nanogpt_train", "hardware"] == "a100" and good.loc["nanogpt_train", "gpus"] == 8
    assert good.loc["megatron_train", "gpus_source"] == "sidecar"
    # two files of one job: one run, its restart found as in a single file
    assert good.loc["resumed_train", "restarts"] == 1
    assert (
        "train-0.log" in good.loc["resumed_train", "source"]
        and "train-1.log" in good.loc["resumed_train", "source"]
    )


def test_the_page_references_every_report_that_exists(first):
    _res, out, index = first
    page = parse((out / "index.html").read_text())
    shown = {i["src"] for i in page.imgs}
    reports = {f"{p.parent.name}/thumb.png" for p in out.glob("*/report.png")}  # each report's page thumbnail
    assert reports == shown and len(reports) == (index["status"] == "ok").sum()


@needs_chromium
def test_the_page_renders_in_chromium(first):
    _res, out, index = first
    proc = run_chromium("--virtual-time-budget=3000", "--dump-dom", (out / "index.html").as_uri())
    assert proc.returncode == 0, proc.stderr[-1000:]
    page = parse(proc.stdout)
    assert page.body.get("data-ready") == "1"
    assert sorted(r["run"] for r in page.rows) == sorted(index.index)
    assert all(i.get("data-loaded") == "1" for i in page.imgs)


def test_a_second_run_is_served_from_the_cache(runs, first):
    _res, out, index = first
    res = _batch(runs, out)
    assert res.exit_code == 1  # the broken run is tried again (failures are not cached)
    again = pd.read_csv(out / "index.csv").set_index("run")
    ok = again["status"] == "ok"
    assert again.loc[ok, "cached"].astype(bool).all()
    pd.testing.assert_series_equal(again.loc[ok, "mfu"], index.loc[index["status"] == "ok", "mfu"])


def test_dask_gives_the_same_index(runs, first, tmp_path):
    pytest.importorskip("distributed")
    local, _out, index = first
    out = tmp_path / "dask"
    res = _batch(runs, out, "--executor", "dask")
    assert res.exit_code == 1

    def errors(output: str) -> list[str]:
        return [line for line in output.splitlines() if line.startswith("error:")]

    assert errors(res.output) == errors(local.output) != []
    dask = pd.read_csv(out / "index.csv").set_index("run")
    drop = ["out", "cached"]
    pd.testing.assert_frame_equal(dask.drop(columns=drop), index.drop(columns=drop))


def test_the_folders_runs_are_named_apart(first):
    _res, out, _index = first
    assert (out / "megatron_train").is_dir() and (out / "resumed_train" / "summary.json").exists()
