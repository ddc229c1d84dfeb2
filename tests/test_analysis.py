"""The whole pipeline on generated logs whose truth is known (tests/synth)."""

from __future__ import annotations

import pytest

from logparse import api
from logparse.core.errors import LogparseError
from tests import synth


def analyze(write_log, text: str, **opts):
    return api.analyze(str(write_log(text)), **opts)


def close(got: float, want: float, rel: float = 0.01) -> bool:
    return abs(got - want) <= rel * want


DIPS = [synth.Dip(150, 3, 0.4), synth.Dip(260, 5, 0.7), synth.Dip(330, 1, 0.3)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_megatron_stable_mfu_warmup_and_every_planted_dip(write_log, seed):
    spec = synth.Spec(steps=400, dips=DIPS, noise=0.02, warmup=20, seed=seed, save_interval=100)
    text, truth = synth.megatron_log(spec)
    s = analyze(write_log, text, gpus=8, hw="h100").summary
    assert close(s["stable"]["mfu_mean"], truth["stable_mfu"]), s["stable"]
    assert abs(s["warmup_steps"] - truth["warmup_steps"]) <= 3
    found = [(d["start_step"], d["end_step"]) for d in s["dips"]]
    assert len(found) == len(truth["dips"]), found
    for (fs, fe), (ts, te) in zip(found, truth["dips"], strict=False):
        assert abs(fs - ts) <= 1 and abs(fe - te) <= 1
    assert s["stable"]["start_step"] <= 25 and s["stable"]["end_step"] == 400
    assert s["flops_per_token"] == pytest.approx(truth["flops_per_token"], rel=1e-6)
    assert all(d["lost_s"] > 0 for d in s["dips"])


@pytest.mark.parametrize("seed", range(5))
def test_no_dip_on_a_flat_noisy_run(write_log, seed):
    text, truth = synth.megatron_log(synth.Spec(steps=500, noise=0.03, seed=seed))
    s = analyze(write_log, text, hw="h100").summary
    assert s["dips"] == []
    assert close(s["stable"]["mfu_mean"], truth["stable_mfu"])


def test_a_restart_is_reported_at_the_right_step_and_steps_count_once(write_log):
    spec = synth.Spec(steps=400, restart=(250, 200), restart_gap_s=900, seed=4, save_interval=100)
    text, truth = synth.megatron_log(spec)
    a = analyze(write_log, text, hw="h100")
    s = a.summary
    assert len(s["restarts"]) == 1
    r = s["restarts"][0]
    assert (r["at_step"], r["resumed_from"]) == (250, 200)
    assert r["redone_steps"] == 50
    # lost = the 900 s gap + the 50 redone steps
    assert r["lost_s"] == pytest.approx(900 + 50 * truth["step_time_s"], rel=0.03)
    steps = a.steps["step"]
    assert list(steps) == list(range(1, 401)) and steps.is_monotonic_increasing
    assert set(a.steps.loc[a.steps["step"] > 200, "segment"]) == {1}
    assert (a.steps["phase"] == "restart").any()
    assert close(s["stable"]["mfu_mean"], truth["stable_mfu"])


def test_every_rank_printing_gives_one_row_per_step(write_log):
    spec = synth.Spec(steps=120, all_ranks=True, seed=5)
    text, truth = synth.megatron_log(spec)
    a = analyze(write_log, text, hw="h100")
    assert len(a.steps) == 120 and a.steps["step"].is_unique
    assert (a.steps["ranks"] == 8).all()
    assert close(a.summary["stable"]["mfu_mean"], truth["stable_mfu"])


def test_interval_logging(write_log):
    text, truth = synth.megatron_log(synth.Spec(steps=500, log_interval=10, seed=6))
    a = analyze(write_log, text, hw="h100")
    assert list(a.steps["step"][:3]) == [10, 20, 30] and (a.steps["step_span"] == 10).all()
    assert close(a.summary["stable"]["mfu_mean"], truth["stable_mfu"])
    assert "interval" in a.summary["steps"]["step_time_source"]


def test_deepspeed_gradient_accumulation_is_counted_once(write_log):
    spec = synth.Spec(steps=400, global_batch=256, micro_batch=4, peak_tflops=312.0, mfu=0.4, seed=7)
    text, truth = synth.deepspeed_log(spec)
    a = analyze(write_log, text, hw="a100", seq_len=4096, model="llama2-7b")
    s = a.summary
    assert truth["grad_accum"] == 8 and s["facts"]["grad_accum"]["value"] == 8
    assert list(a.steps["step"][:3]) == [10, 20, 30]  # optimizer steps, not the micro_step counter
    assert close(s["stable"]["mfu_mean"], truth["stable_mfu"])  # one sampled step per 10: 0.02% off (seed 7)
    assert s["gpus"] == 8 and s["gpus_source"] == "derived"


def test_legacy_deepspeed_micro_step_counter_uses_grad_accumulation(write_log):
    text = "".join(
        f"[2022-08-29 06:58:{i:02d},176] [INFO] [config.py:964:print]   {k} {'.' * (29 - len(k))} {v}\n"
        for i, (k, v) in enumerate([("gradient_accumulation_steps", 4), ("train_batch_size", 64)])
    ) + "".join(
        f"[2022-08-29 07:00:{i:02d},176] [INFO] [timer.py:198:stop] 0/{40 * i}, RunningAvgSamplesPerSec=30.0, "
        f"CurrSamplesPerSec=32.0, MemAllocated=0.36GB, MaxMemAllocated=15.06GB\n"
        for i in range(1, 11)
    )
    a = api.resolve(str(write_log(text)))
    assert list(a.steps["step"]) == [10 * i for i in range(1, 11)]
    assert a.steps["step_time_s"].iloc[0] == pytest.approx(64 / 32.0)


def test_gpus_disagreeing_with_the_log_is_named(write_log):
    text, _ = synth.megatron_log(synth.Spec(steps=60, seed=8))
    s = analyze(write_log, text, hw="h100", gpus=16).summary
    assert any("gpus=16 disagrees with the log's world size 8" in w for w in s["warnings"])
    assert s["gpus"] == 16 and s["gpus_source"] == "cli"


def test_an_impossible_mfu_is_refused_with_the_likely_causes(write_log):
    text, _ = synth.megatron_log(synth.Spec(steps=60, seed=9))
    with pytest.raises(LogparseError, match=r"stable MFU would be 3\d\d%, which is impossible: check gpus=1"):
        analyze(write_log, text, hw="h100", gpus=1)


SEED1_LOG = "".join(
    f" iteration {i:8d}/{50:8d} | consumed samples: {i * 1000:12d} | elapsed time per iteration (ms): {2000.0:.1f} | "
    f"global batch size: {1000:5d} | lm loss: {3.0:.6E} | number of skipped iterations:   0 | number of nan "
    "iterations:   0 |\n"
    for i in range(1, 51)
)


def test_seed1_the_tool_asks_for_gpus_instead_of_printing_67_percent(write_log):
    # 7B, 6N, 1e6 tokens per step (1000 x 1000), 2 s per step, A100: MFU depends on the GPU count
    path = str(write_log(SEED1_LOG))
    s = api.analyze(path, hw="a100", params=7e9, seq_len=1000).summary
    assert s["stable"]["mfu_mean"] is None and s["stable"]["tflops_per_gpu"] is None
    assert any("pass gpus" in w for w in s["warnings"])  # the keyword: called from Python
    with pytest.raises(LogparseError, match="impossible"):
        api.analyze(path, hw="a100", params=7e9, seq_len=1000, gpus=1)
    s = api.analyze(path, hw="a100", params=7e9, seq_len=1000, gpus=100).summary
    assert s["formula"] == "6n" and s["stable"]["mfu_mean"] == pytest.approx(0.673, abs=1e-3)


def test_provenance_of_every_assumption(write_log):
    text, _ = synth.megatron_log(synth.Spec(steps=60, seed=10))
    s = analyze(write_log, text, hw="h100", gpus=8).summary
    assert s["gpus_source"] == "cli"
    assert s["hardware"] == {
        "name": "h100-sxm",
        "name_source": "cli",
        "name_detail": "hw=h100",  # what the caller said, as it said it
        "dtype": "bf16",
        "dtype_source": "log",
        "peak_tflops_per_gpu": 989.0,
        "peak_source": s["hardware"]["peak_source"],
        "dense": True,
    }
    assert s["model"]["source"] == "derived" and s["model"]["sources"]["layers"] == "log"
    assert s["facts"]["seq_len"]["source"] == "log" and "line" in s["facts"]["seq_len"]["detail"]
    assert s["formula"] == "palm" and s["recompute"] == "none"


def test_without_hardware_mfu_is_null_not_guessed(write_log):
    text, _ = synth.megatron_log(synth.Spec(steps=60, seed=11))
    s = analyze(write_log, text).summary
    assert s["stable"]["mfu_mean"] is None and s["hardware"]["peak_tflops_per_gpu"] is None
    assert s["stable"]["tokens_per_s"] is not None
    assert any("pass hw NAME" in w for w in s["warnings"])


def test_the_reported_figure_is_compared(write_log):
    text, _ = synth.megatron_log(synth.Spec(steps=100, seed=12))
    s = analyze(write_log, text, hw="h100").summary
    assert s["reported"]["tflops_per_gpu_mean"] is not None
    assert s["reported"]["agrees_within"] < 0.01


MDS_LINE = (
    " iteration {i:8d}/  317892 | consumed samples: {c:12d} | consumed tokens: {t:12d} | elapsed time per "
    "iteration (ms): 10154.3 | learning rate: 3.000E-04 | global batch size:    32 | lm loss: 1.766422E+01 | "
    "loss scale: 1.0 | actual seqlen:  4096 | number of skipped iterations:   0 | number of nan iterations:   0 | "
    "samples per second: 3.151 | tokens per gpu per second(tgs): 1613.503 | TFLOPs: 98.29 |\n"
)


def test_per_gpu_figure_that_contradicts_the_gpu_count_is_named(write_log):
    # Megatron-DeepSpeed prints cluster samples/s and per-GPU tgs: 32 x 4096 / 10.1543 s / 1613.5 = 8 GPUs
    text = "".join(MDS_LINE.format(i=i, c=32 * i, t=32 * 4096 * i) for i in range(1, 41))
    run = api.resolve(str(write_log(text)), gpus=16)
    assert any("implies 8.0 GPUs" in w for w in run.warnings)
    run = api.resolve(str(write_log(text, "ok.log")), gpus=8)
    assert not any("implies" in w for w in run.warnings)
    assert run.steps["tokens_per_s"].iloc[-1] == pytest.approx(1613.503 * 8)
    assert run.facts["seq_len"].value == 4096  # from the line's actual seqlen


def test_grad_accum_from_the_command_line(write_log):
    text = "".join(
        f"[2022-08-29 07:00:{i:02d},176] [INFO] [timer.py:198:stop] 0/{40 * i}, RunningAvgSamplesPerSec=30.0, "
        f"CurrSamplesPerSec=32.0, MemAllocated=0.36GB, MaxMemAllocated=15.06GB\n"
        for i in range(1, 11)
    )
    path = str(write_log(text))
    assert any("does not state the gradient accumulation" in w for w in api.resolve(path).warnings)
    run = api.resolve(path, grad_accum=4, global_batch=64)
    assert (
        list(run.steps["step"]) == [10 * i for i in range(1, 11)] and run.facts["grad_accum"].source == "cli"
    )
