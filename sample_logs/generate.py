"""Regenerate the synthetic sample logs (deterministic): python sample_logs/generate.py

The Hugging Face Trainer logs beside them are real CPU runs (see capture_hf.py); these synthetic
ones follow Megatron-LM's and DeepSpeed's format strings line for line (tests/synth/), with the
truth they were made from written to <name>.truth.json.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from logparse.flops.models import preset_dims  # noqa: E402

from tests import synth  # noqa: E402
from tests.synth import nemo_lightning, neox_maxtext_etc  # noqa: E402

HERE = Path(__file__).resolve().parent

SAMPLES = {
    # Llama-2-7B on 8 x H100 at 45% MFU: warmup, a checkpoint every 100 steps, a slow patch after
    # the step-300 save and another at 420.
    "megatron_llama2-7b_8xh100": (
        synth.megatron_log,
        synth.Spec(
            steps=500, save_interval=100, seed=7, dips=[synth.Dip(301, 3, 0.45), synth.Dip(420, 4, 0.6)]
        ),
    ),
    # The same job killed at step 340 and resumed from the step-300 checkpoint.
    "megatron_resumed_8xh100": (
        synth.megatron_log,
        synth.Spec(steps=500, save_interval=100, seed=8, restart=(340, 300)),
    ),
    # DeepSpeed ZeRO-2, 8 GPUs, micro batch 4, gradient accumulation 8 (global batch 256).
    "deepspeed_ga8_8xa100": (
        synth.deepspeed_log,
        synth.Spec(steps=600, global_batch=256, micro_batch=4, peak_tflops=312.0, mfu=0.42, seed=9),
    ),
    # torchtitan, Llama-3-8B at sequence 8192 on 8 x H100 (per-device tps / tflops / mfu).
    "torchtitan_llama3-8b_8xh100": (
        synth.torchtitan_log,
        synth.Spec(
            steps=400, model=preset_dims("llama3-8b"), seq_len=8192, global_batch=16, mfu=0.38, seed=10
        ),
    ),
    # nanoGPT GPT-2 124M on 8 x A100 (its mfu is against the A100's 312 TFLOPS, EMA-smoothed).
    "nanogpt_gpt2_8xa100": (
        synth.nanogpt_log,
        synth.Spec(
            steps=500,
            model=preset_dims("gpt2"),
            seq_len=1024,
            global_batch=480,
            micro_batch=12,
            peak_tflops=312.0,
            mfu=0.42,
            seed=11,
        ),
    ),
}


# one per remaining family, each module's own small sample (tests/synth/*.py)
SAMPLES.update(nemo_lightning.SAMPLES)
SAMPLES.update(neox_maxtext_etc.SAMPLES)


def main() -> None:
    for name, (writer, spec) in SAMPLES.items():
        text, truth = writer(spec)
        (HERE / f"{name}.log").write_text(text)
        (HERE / f"{name}.truth.json").write_text(json.dumps(truth, indent=2) + "\n")
        print(f"wrote sample_logs/{name}.log ({len(text.splitlines())} lines)")


if __name__ == "__main__":
    main()
