"""NeMo (1.x and 2.0), PyTorch Lightning, litgpt and Colossal-AI: real lines parse to the right values, and
generated logs (tests/synth/nemo_lightning.py) are detected and give the MFU they were made with."""

from __future__ import annotations

import math

import pytest

from logparse import api
from logparse.patterns import sets as patterns
from logparse.read.reader import clean_text
from tests import synth
from tests.conftest import SAMPLES as SAMPLE_DIR
from tests.synth import nemo_lightning as nl

SETS = patterns.load_sets()
OURS = ("nemo", "lightning", "litgpt", "colossalai")


def read(set_name: str, line: str):
    """(line spec, values) of a line under one set, the way the frame stage sees it."""
    hit = SETS[set_name].match(clean_text(line)[0])
    assert hit is not None, f"{set_name} does not read {line!r}"
    return hit


# ------------------------------------------------------------------------------------------------
# (a) the real lines of log_formats.md §0, §6b, §6g, §6h and of the issues it cites

NEMO2_REAL = (  # NVIDIA-BioNeMo/bionemo-recipes PR #740
    "Training epoch 0, iteration 120/149 | lr: 3e-05 | consumed_samples: 121 | global_batch_size: 1 | "
    "global_step: 120 | reduced_train_loss: 1.233 | train_step_timing in s: 0.03146 | val_loss: 4.106"
)
NEMO1_LAUNCHER = (  # NVIDIA/NeMo-Framework-Launcher#55 (Lightning's default bar in NeMo 1.x)
    "Epoch 0:   1%|          | 795/77225 [9:07:58<878:01:48, 41.36s/it, loss=3.1, v_num=, "
    "reduced_train_loss=3.090, global_step=794.0, consumed_samples=1.63e+6]"
)
NEMO1_NEMOTRON = (  # Nemotron recipe (MegatronProgressBar)
    "Epoch 0: : 100%|██████████| 100/100 [10:48<00:00, reduced_train_loss=0.0172, global_step=99.00, "
    "consumed_samples=25600.0, train_step_timing in s=3.130]"
)
LITGPT_STEP = "iter 77 step 39: loss 10.8259, iter time: 214.40ms (optimizer.step)"  # Lightning-AI/litgpt#689
LITGPT_ACCUMULATING = "iter 76 step 38: loss 10.8259, iter time: 197.87ms"  # Lightning-AI/litgpt#689
COLOSSAL_BAR = (  # hpcaitech/ColossalAI#4551: the Step bar glued to a rich logger record
    "Step:  20%|██        | 1/5 [00:22<01:31, 22.90s/it][08/30/23 07:07:54] INFO     colossalai - colossalai - "
    "INFO:                    "
)
COLOSSAL_RECORD = "[08/30/23 07:07:34] INFO     colossalai - colossalai - INFO:"  # log_formats.md §0


def test_nemo2_progress_printer_line():
    spec, v = read("nemo", NEMO2_REAL)
    assert spec.name == "progress_printer" and spec.step == "optimizer" and spec.interval
    assert v["step"] == 120 and "micro_step" not in v  # global batches: optimizer steps
    assert v["step_time_s"] == pytest.approx(0.03146)  # seconds per optimizer step
    assert v["consumed_samples"] == 121 and v["global_batch_size"] == 1  # all data-parallel ranks
    assert v["lr"] == pytest.approx(3e-05) and v["loss"] == pytest.approx(1.233)
    assert v["eval_loss"] == pytest.approx(4.106)


def test_nemo1_bars_count_optimizer_steps():
    spec, v = read("nemo", NEMO1_LAUNCHER)
    assert spec.name == "tqdm_bar" and spec.step == "optimizer"
    assert v["step"] == 795 and "micro_step" not in v
    assert v["loss"] == pytest.approx(3.09)  # reduced_train_loss, not Lightning's running "loss"
    assert v["consumed_samples"] == 1_630_000  # tqdm's 3-digit exponent form
    # the s/it is tqdm's average since the epoch began: kept as progress, never as the step time
    assert v["progress_s_per_it"] == pytest.approx(41.36) and "step_time_s" not in v
    assert v["progress_elapsed_s"] == 9 * 3600 + 7 * 60 + 58
    spec, v = read("nemo", NEMO1_NEMOTRON)
    assert spec.name == "tqdm_bar" and v["step"] == 100
    assert v["step_time_s"] == pytest.approx(3.13) and v["consumed_samples"] == 25600
    assert v["loss"] == pytest.approx(0.0172) and v["progress_elapsed_s"] == 648


def test_nemo_reported_tflops_are_per_gpu():
    _, v = read(
        "nemo", "Training epoch 0, iteration 40/300 | global_step: 40 | tflops_per_sec_per_gpu: 412.3"
    )
    assert v["reported_tflops_per_gpu"] == pytest.approx(412.3) and "reported_tflops_cluster" not in v


def test_lightning_bar_counts_micro_batches():
    spec, v = read("lightning", NEMO1_LAUNCHER)  # the same bar, read as generic Lightning
    assert spec.name == "train_bar" and spec.step == "micro"
    assert v["micro_step"] == 795 and "step" not in v and "step_time_s" not in v
    _, v = read(
        "lightning", "Epoch 0:  10%|█         | 40/400 [00:51<07:39,  0.78it/s, v_num=0, train_loss=7.210]"
    )
    assert v["micro_step"] == 40 and v["loss"] == pytest.approx(7.21)
    assert v["progress_s_per_it"] == pytest.approx(1 / 0.78)  # it/s inverted, per micro-batch
    _, v = read("lightning", "6.7 B     Total params")
    assert v["total_params"] == pytest.approx(6.7e9)  # Lightning's 1000-based suffix


def test_a_step_in_a_bars_postfix_is_no_position_of_the_bar(write_log):
    # diffusers examples/unconditional_image_generation/train_unconditional.py: per epoch a tqdm bar of
    # num_update_steps_per_epoch described f"Epoch {epoch}", progress_bar.update(1) after each optimizer step, then
    # progress_bar.set_postfix(**logs) with logs = {"loss": ..., "lr": ..., "step": global_step}; tqdm's default
    # format "{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}{postfix}]", redrawn in place
    def bar(epoch: int, n: int, postfix: str) -> str:
        fill = "█" * (10 * n // 3) + " " * (10 - 10 * n // 3)
        return f"Epoch {epoch}: {100 * n // 3:3d}%|{fill}| {n}/3 [00:0{n}<00:00,  1.50it/s{postfix}]"

    lines, step, postfix = [], 0, ""
    for epoch in (0, 1):
        redraws = [f"Epoch {epoch}:   0%|          | 0/3 [00:00<?, ?it/s{postfix}]"]
        for n in (1, 2, 3):
            step += 1
            # update(1): the position moves, the postfix is the last step's; then set_postfix: this step's values
            redraws.append(bar(epoch, n, postfix))
            postfix = f", loss={1 - step / 10:.3g}, lr=0.001, step={step}"
            redraws.append(bar(epoch, n, postfix))
        lines.append("\r".join(redraws))
    run = api.resolve(write_log("\n".join(lines) + "\n"))
    assert list(run.steps["step"]) == [1, 2, 3, 4, 5, 6]
    assert list(run.steps["loss"]) == pytest.approx([0.9, 0.8, 0.7, 0.6, 0.5, 0.4])


def test_litgpt_lines_are_micro_batches_of_an_optimizer_step():
    spec, v = read("litgpt", LITGPT_STEP)
    assert spec.name == "iter"
    assert (v["micro_step"], v["step"]) == (77, 39)
    assert v["step_time_s"] == pytest.approx(0.2144)  # ms -> s, one micro-batch
    assert spec.fields["ms"].aggregate == "sum"  # the optimizer step's time is the sum of its lines
    _, v = read("litgpt", LITGPT_ACCUMULATING)
    assert (v["micro_step"], v["step"]) == (76, 38) and v["step_time_s"] == pytest.approx(0.19787)


def test_colossalai_step_bar_and_records():
    spec, v = read("colossalai", COLOSSAL_BAR)
    assert spec.name == "step_bar" and spec.step == "optimizer"
    assert v["step"] == 1 and v["step_time_s"] == pytest.approx(22.90) and v["progress_elapsed_s"] == 22
    spec, v = read("colossalai", COLOSSAL_RECORD)
    assert spec.name == "rich_record" and v == {}
    _, v = read(
        "colossalai",
        "Throughput: 18.71 samples/sec, TFLOPS per GPU by Megatron: 337.25, TFLOPS per GPU: 307.29",
    )
    assert v == {"final_samples_per_s": pytest.approx(18.71)}  # the job's samples/s; the TFLOPS are not kept
    _, v = read("colossalai", "Model params: 6.28 B")
    assert v["total_params"] == pytest.approx(6.28 * 1024**3)  # format_numel_str is 1024-based


def test_colossalai_records_leave_errors_to_the_common_set():
    oom = (
        "                             torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."
    )
    assert SETS["colossalai"].match(clean_text(oom)[0]) is None
    spec, _ = read("common", oom)
    assert spec.event == "error"


# ------------------------------------------------------------------------------------------------
# detection stays with the right family

OTHER_LOGS = {
    "megatron": lambda: synth.megatron_log(synth.Spec(steps=40, seed=1))[0],
    "deepspeed": lambda: synth.deepspeed_log(synth.Spec(steps=40, seed=1))[0],
    "torchtitan": lambda: synth.torchtitan_log(synth.Spec(steps=40, seed=1))[0],
    "nanogpt": lambda: synth.nanogpt_log(synth.Spec(steps=40, seed=1))[0],
}


def test_a_nemo_log_drawn_with_lightnings_default_bar_stays_nemo(write_log):
    """Early NeMo 1.x drew Lightning's own bar (with a rate): the lightning set may join, but NeMo's reading
    (bar position = optimizer step) wins; the first redraws, before any metric, carry no NeMo key."""
    bar = "Epoch 0:   0%|          | {n}/77225 [{t}<878:01:48, 41.36s/it{post}]"
    post = ", loss=3.1, v_num=, reduced_train_loss=3.090, global_step={g}.0, consumed_samples={c}.0"
    redraws = [
        bar.format(n=0, t="00:00", post="").replace("41.36s/it", "?it/s"),
        bar.format(n=1, t="00:41", post=""),
    ]
    for n in range(1, 40):
        redraws.append(bar.format(n=n, t="00:41", post=post.format(g=n - 1, c=2048 * n)))
        redraws.append(bar.format(n=n + 1, t="00:41", post=post.format(g=n - 1, c=2048 * n)))
    run = api.resolve(str(write_log("\r" + "\r".join(redraws) + "\n")))
    assert run.parsed.formats[0] == "nemo"
    assert list(run.steps["step"]) == list(range(1, 41)) and "micro_step" not in run.steps


@pytest.mark.parametrize("name", sorted(OTHER_LOGS))
def test_our_detect_regexes_stay_silent_on_other_frameworks(name):
    texts = [clean_text(seg)[0] for line in OTHER_LOGS[name]().splitlines() for seg in line.split("\r")]
    for ours in OURS:
        assert not any(SETS[ours].detect_hits(t) for t in texts), (ours, name)


def test_our_detect_regexes_stay_silent_on_the_other_sample_logs():
    own = {"nemo1": "nemo", "nemo2": "nemo"}
    for path in sorted(SAMPLE_DIR.glob("*.log")):
        family = own.get(path.name.split("_")[0], path.name.split("_")[0])
        texts = [clean_text(seg)[0] for line in path.read_text().splitlines() for seg in line.split("\r")]
        for ours in OURS:
            if ours != family:
                assert not any(SETS[ours].detect_hits(t) for t in texts), (ours, path.name)


# ------------------------------------------------------------------------------------------------
# (b) generated logs: detection, step numbering, MFU against the truth they were made from

OPTIONS = {  # what a user passes: the logs state the GPUs (except litgpt) but not all of the rest
    "nemo2_llama2-7b_8xh100": dict(hw="h100", seq_len=4096, model="llama2-7b"),
    "nemo1_llama2-7b_8xh100": dict(hw="h100", model="llama2-7b"),  # batch and seq len from the Hydra config
    "lightning_ga4_8xh100": dict(hw="h100", seq_len=4096, model="llama2-7b", global_batch=128),
    "litgpt_ga2_8xh100": dict(hw="h100", seq_len=4096, model="llama2-7b", gpus=8, global_batch=128),
    "colossalai_llama2-7b_8xh100": dict(hw="h100", seq_len=4096, model="llama2-7b", global_batch=128),
}
FORMAT = {name: name.split("_")[0].replace("nemo2", "nemo").replace("nemo1", "nemo") for name in OPTIONS}


def _analyze(write_log, name: str):
    writer, spec = nl.SAMPLES[name]
    text, truth = writer(spec)
    a = api.analyze(str(write_log(text, f"{name}.log")), **OPTIONS[name])
    return a, spec, truth


@pytest.mark.parametrize("name", sorted(nl.SAMPLES))
def test_each_generated_log_is_detected(write_log, name):
    a, _, _ = _analyze(write_log, name)
    assert a.summary["format"] == FORMAT[name]
    assert a.summary["detection"]["confidence"] > 0.9


@pytest.mark.parametrize(
    "name",
    ["nemo2_llama2-7b_8xh100", "nemo1_llama2-7b_8xh100", "litgpt_ga2_8xh100", "colossalai_llama2-7b_8xh100"],
)
def test_stable_mfu_matches_the_truth(write_log, name):
    a, _, truth = _analyze(write_log, name)
    mfu = a.summary["stable"]["mfu_mean"]
    assert mfu is not None and math.isclose(mfu, truth["stable_mfu"], rel_tol=0.01), (
        mfu,
        truth["stable_mfu"],
    )
    assert a.summary["gpus"] == 8


def test_nemo2_steps_are_the_printers_iterations(write_log):
    a, spec, _ = _analyze(write_log, "nemo2_llama2-7b_8xh100")
    assert list(a.steps["step"]) == list(range(0, spec.steps, spec.log_interval))
    assert (a.steps["step_span"].iloc[1:] == spec.log_interval).all()
    assert "interval" in a.summary["steps"]["step_time_source"]
    assert a.summary["gpus_source"] == "log"  # "All distributed processes registered. Starting with 8"


def test_nemo1_steps_are_bar_positions_and_batch_comes_from_the_config(write_log):
    a, spec, _ = _analyze(write_log, "nemo1_llama2-7b_8xh100")
    assert list(a.steps["step"]) == list(range(1, spec.steps + 1))  # one row per optimizer step
    facts = a.summary["facts"]
    assert (
        facts["global_batch_size"]["value"] == spec.global_batch and facts["seq_len"]["value"] == spec.seq_len
    )
    assert a.steps["eval_loss"].notna().any()  # val_loss joins the postfix after validation
    assert a.summary["steps"]["step_time_source"] == "log"


def test_lightning_micro_batches_become_optimizer_steps_without_a_step_time(write_log):
    a, spec, truth = _analyze(write_log, "lightning_ga4_8xh100")
    assert a.summary["facts"]["grad_accum"]["value"] == 4
    steps = a.steps["step"]
    # not the 240 micro-batches: step k is the k-th optimizer step, valued at the redraw that completes it
    assert list(steps) == list(range(1, spec.steps + 1))
    assert truth["micro_batches"] == 4 * spec.steps and a.steps["micro_step"].max() == truth["micro_batches"]
    # the rate (an epoch average, 0.33it/s with 2 decimals) is too coarse to recover 12 s steps: no MFU, not a wrong one
    assert a.summary["stable"]["mfu_mean"] is None and a.summary["steps"]["step_time_source"] is None


def test_litgpt_step_time_is_the_sum_of_its_micro_batches(write_log):
    a, spec, truth = _analyze(write_log, "litgpt_ga2_8xh100")
    assert a.steps["step"].max() == spec.steps and a.steps["step"].is_unique
    assert a.steps["micro_step"].max() == truth["micro_batches"] - 1  # iter counts from 0
    stable = a.steps[a.steps["phase"] == "stable"]
    assert stable["step_time_s"].median() == pytest.approx(truth["step_time_s"], rel=0.03)


def test_colossalai_end_of_run_throughput_is_the_jobs(write_log):
    a, spec, truth = _analyze(write_log, "colossalai_llama2-7b_8xh100")
    assert list(a.steps["step"]) == list(range(1, spec.steps + 1))
    facts = a.summary["facts"]
    assert facts["final_samples_per_s"]["value"] == pytest.approx(truth["final_samples_per_s"], abs=0.005)
    assert facts["data_parallel_size"]["value"] == spec.gpus
    assert facts["total_params"]["value"] == pytest.approx(nl._total_params(spec), rel=0.001)
