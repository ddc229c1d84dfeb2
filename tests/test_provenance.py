"""Issue 22, "Where facts come from": each fact in summary.json names where it came from (the command line,
a run folder's logparse.toml, the log, a preset), an option that replaces what the log states says so with
both values, the MLP's gating is a choice with its source, and the report's footer puts each source beside
its own fact."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.conftest import SAMPLES, run_apart

MEGATRON = SAMPLES / "megatron_llama2-7b_8xh100.log"


def _summary(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text())


# ------------------------------------------------------------------------------------------------
# 1. a sidecar's options are the sidecar's, not the command line's


def test_a_sidecars_options_are_named_as_the_sidecars(tmp_path):
    runs = tmp_path / "runs"
    (runs / "a").mkdir(parents=True)
    shutil.copy(MEGATRON, runs / "a" / "train.log")
    (runs / "a" / "logparse.toml").write_text(
        'hw = "b200"\ngpus = 8\ndtype = "bf16"\nseq_len = 4096\nmodel = "llama2-7b"\nglobal_batch = 128\n'
    )
    out = tmp_path / "out"
    res = run_apart(["batch", str(runs), "--out", str(out), "--jobs", "1"])
    assert res.exit_code == 0, res.stderr
    s = _summary(out / "train")
    hw = s["hardware"]
    # nobody typed --hw: the device is the sidecar's, said as the sidecar says it
    assert hw["name"].startswith("b200")
    assert hw["name_source"] == "sidecar"
    assert hw["name_detail"] == 'logparse.toml: hw = "b200"'
    assert hw["dtype_source"] == "sidecar"
    assert s["gpus_source"] == "sidecar"
    assert s["facts"]["seq_len"]["source"] == "sidecar"
    assert s["facts"]["global_batch_size"]["source"] == "sidecar"
    assert s["model"]["sources"]["layers"] == "preset"  # the preset's dims, the preset named by the sidecar


def test_a_sidecars_peak_is_the_sidecars(tmp_path):
    runs = tmp_path / "runs"
    (runs / "a").mkdir(parents=True)
    shutil.copy(MEGATRON, runs / "a" / "train.log")
    (runs / "a" / "logparse.toml").write_text("peak_tflops = 500\n")
    out = tmp_path / "out"
    assert run_apart(["batch", str(runs), "--out", str(out), "--jobs", "1"]).exit_code == 0
    hw = _summary(out / "train")["hardware"]
    assert (hw["peak_tflops_per_gpu"], hw["name_source"]) == (500, "sidecar")
    assert hw["name_detail"] == "logparse.toml: peak_tflops = 500.0"
