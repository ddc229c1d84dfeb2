"""Runs that count samples (images, clips), not tokens: samples/s from the log, the MFU from the training FLOPs per
sample the user gives (--flops-per-sample), else null with that hint; the summary, the text, the figure and the
batch page say samples.

The vision log is timm's train.py as it prints (patterns/timm.toml cites the format strings), written here with
round numbers so that the MFU is a hand calculation; the torchvision lines are a real run's
(fangwei123456/Spike-Element-Wise-ResNet#10: references/classification's MetricLogger, img/s per process).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from logparse import api
from logparse.cli import cli
from logparse.report.gather import report_data
from logparse.report.plots import _panels

# 8 GPUs, a global batch of 2048 images (256 a GPU) in 0.400 s an update: 5120.00 images/s, 640 a GPU
TIMM_HEAD = [
    "Training in distributed mode with multiple processes, 1 device per process.Process 0, total 8, device cuda:0.",
    "Model resnet50 created, param count:25557032",
    "Scheduled epochs: 90 (epochs + cooldown_epochs). Warmup within epochs when warmup_prefix=False. LR stepped per update.",
]


def _timm_log(tmp_path) -> str:
    lines = list(TIMM_HEAD)
    for epoch in range(2):
        for i in range(0, 625, 25):
            loss = 6.9 - 0.001 * (625 * epoch + i)
            lines.append(
                f"Train: {epoch} [{i:>4d}/625 ({100.0 * (i + 1) / 625:>3.0f}%)]  Loss: {loss:#.3g} ({loss + 0.02:#.3g})  "
                f"Time: 0.400s, {2048 / 0.4:>7.2f}/s  (0.400s, {2048 / 0.4:>7.2f}/s)  LR: 1.000e-01  "
                "Data: 0.012 (0.013)"
            )
        lines.append(
            "Test: [  48/48]  Time: 0.152 (0.231)  Loss:   2.234 ( 2.456)  Acc@1:  50.000 ( 48.120)  "
            "Acc@5:  79.000 ( 78.456)"
        )
    path = tmp_path / "timm_resnet50.log"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


# ResNet-50 at 224 px: 4.1e9 multiply-adds forward (timm's and fvcore's "GFLOPs"), 8.2e9 FLOPs; a training step
# is forward and backward, 3x the forward: 2.46e10 FLOPs per image
FLOPS_PER_IMAGE = 3 * 2 * 4.1e9
A100_BF16 = 312e12


def _analyze(log: str, *options: str) -> dict:
    res = CliRunner().invoke(cli, ["analyze", log, "--json", "--out", log + ".out", *options])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_mfu_from_flops_per_sample_through_the_cli(tmp_path):
    s = _analyze(_timm_log(tmp_path), "--hw", "a100", "--flops-per-sample", str(FLOPS_PER_IMAGE))
    assert s["format"] == "timm"
    st = s["stable"]
    assert st["samples_per_s"] == pytest.approx(5120.0)  # images/s, the whole job's
    assert s["samples"]["samples_per_s_per_gpu"] == pytest.approx(640.0)  # over the 8 GPUs the log names
    # MFU = FLOPs per sample x samples/s per GPU / peak = 2.46e10 x 640 / 312e12 = 0.0504615...
    assert st["mfu_mean"] == pytest.approx(2.46e10 * 640 / 312e12, rel=1e-6)
    assert st["tflops_per_gpu"] == pytest.approx(2.46e10 * 640 / 1e12, rel=1e-6)
    assert st["tokens_per_s"] is None and s["flops_per_token"] is None  # nothing counted in tokens
    assert s["samples"]["throughput_unit"] == "samples"
    assert s["samples"]["flops_per_sample"] == FLOPS_PER_IMAGE
    assert s["samples"]["flops_per_sample_source"] == "cli"
    assert s["formula"] == "given"
    assert not [w for w in s["warnings"] if "--seq-len" in w or "--model" in w]  # tokens are not needed


def test_without_flops_per_sample_the_mfu_is_null_and_says_what_to_pass(tmp_path):
    log = _timm_log(tmp_path)
    s = _analyze(log, "--hw", "a100")
    assert s["stable"]["mfu_mean"] is None
    assert s["stable"]["samples_per_s"] == pytest.approx(5120.0)
    assert s["samples"]["flops_per_sample"] is None
    res = CliRunner().invoke(cli, ["analyze", log, "--hw", "a100", "--out", str(tmp_path / "out")])
    assert "FLOPs/sample unknown (pass --flops-per-sample X" in res.output
    assert "5,120 samples/s (640/GPU)" in res.output  # the stable window in samples, not "tokens/s unknown"


def test_the_text_the_figure_and_the_page_say_samples(tmp_path):
    log = _timm_log(tmp_path)
    a = api.analyze(log, hw="a100", flops_per_sample=FLOPS_PER_IMAGE)
    labels = [label for label, _, _ in _panels(report_data(a))]
    assert "samples/s per GPU" in labels and not any("tokens" in label for label in labels)
    res = CliRunner().invoke(
        cli, ["analyze", log, "--hw", "a100", "--flops-per-sample", "2.46e10", "--out", str(tmp_path / "o")]
    )
    assert "2.460e+10 FLOPs/sample (cli)" in res.output and "MFU 5.0%" in res.output
    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "timm_resnet50.log").write_text(open(log).read())
    res = CliRunner().invoke(cli, ["batch", str(folder), "--out", str(tmp_path / "batch"), "--hw", "a100"])
    assert res.exit_code == 0, res.output
    page = (tmp_path / "batch" / "index.html").read_text()
    assert "640 samples/s" in page
    assert (
        "no MFU: FLOPs/sample unknown (pass " in page and "--flops-per-sample" in page
    )  # why there is no MFU


# fangwei123456/Spike-Element-Wise-ResNet#10: torchvision's references/classification/train.py, whose img/s is
# this process's batch over its iteration's time (one GPU's)
TORCHVISION = """\
Epoch: [0]  [ 103/5005]  eta: 4:43:31  lr: 0.1  img/s: 13.62830983555788  loss: 6.8536 (6.9458)  acc1: 0.0000 (0.2103)  acc5: 0.0000 (0.9916)  time: 2.5401  data: 0.0336  max mem: 3524
Epoch: [0]  [ 104/5005]  eta: 4:47:43  lr: 0.1  img/s: 3.5788954758177014  loss: 6.8593 (6.9466)  acc1: 0.0000 (0.2083)  acc5: 0.0000 (0.9821)  time: 2.8689  data: 0.0337  max mem: 3524
Epoch: [0]  [ 105/5005]  eta: 4:45:43  lr: 0.1  img/s: 32.16833850427397  loss: 6.8593 (6.9471)  acc1: 0.0000 (0.2064)  acc5: 0.0000 (0.9729)  time: 2.7337  data: 0.0039  max mem: 3524
"""


def test_a_per_gpu_images_per_second_counts_samples(tmp_path):
    path = tmp_path / "torchvision_resnet.log"
    path.write_text(TORCHVISION)
    a = api.analyze(str(path), gpus=8, hw="a100", flops_per_sample=FLOPS_PER_IMAGE)
    steps = a.steps
    assert list(steps["samples_per_s_per_gpu"]) == [13.62830983555788, 3.5788954758177014, 32.16833850427397]
    assert list(steps["samples_per_s"]) == pytest.approx(
        [8 * 13.62830983555788, 8 * 3.5788954758177014, 8 * 32.16833850427397]
    )
    # each step's MFU from its own per-GPU images/s: 2.46e10 x 13.628... / 312e12
    assert steps["mfu"].iloc[0] == pytest.approx(2.46e10 * 13.62830983555788 / 312e12)


def test_flops_per_sample_on_a_run_that_counts_tokens_is_not_used_and_said(tmp_path):
    path = tmp_path / "tokens.log"
    path.write_text(
        "".join(
            f"step {s}/20 | loss {5 - 0.1 * s:.3f} | 100.0 ms/step | 40,960 tok/s\n" for s in range(1, 21)
        )
    )
    a = api.analyze(str(path), gpus=1, hw="a100", flops_per_sample=1e9)
    assert "samples" not in a.summary
    assert any(w.code == "flops_per_sample_unused" for w in a.run.warnings)


@pytest.mark.parametrize(
    "extra", [["--flops-per-sample", "0"], ["--flops-per-sample", "1e9", "--flops-per-token", "1e9"]]
)
def test_a_bad_flops_per_sample_is_a_usage_error(tmp_path, extra):
    res = CliRunner().invoke(cli, ["analyze", _timm_log(tmp_path), *extra])
    assert res.exit_code == 2
    assert res.stderr.startswith("error: ") and "Traceback" not in res.stderr
