"""Synthetic training logs in the frameworks' real formats, with the truth they were made from.

Used by the tests (known warmup, noise, dips, restarts, gradient accumulation, all ranks printing),
by `sample_logs/generate.py` and by the benchmarks. Every line follows the framework's own format
string (quoted in patterns/*.toml and ../shared/reference/log_formats.md), so what the tests parse is
what real logs contain. Deterministic for a given seed.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from logparse.specs.formulas import ModelDims, flops_per_token

from ..reference_flops import Reference, lookup

LLAMA2_7B = ModelDims(
    layers=32, hidden=4096, heads=32, kv_heads=32, head_dim=128, ffn_hidden=11008, vocab=32000, swiglu=True
)


@dataclass
class Dip:
    start: int  # first slow step
    length: int  # slow steps
    factor: float  # throughput multiplier during the dip (0.4 = 60% slower)


@dataclass
class Spec:
    """What the run really did. Step times are drawn so the stable MFU equals `mfu` on average.

    The truth's FLOPs per token and N come from `reference`, an entry of the hand-worked table in
    tests/reference_flops.py (looked up by `model` and `seq_len` when not given), never from
    logparse's own formulas: stable step time = FLOPs/token x tokens per step / (mfu x peak x GPUs),
    so logparse's MFU matches `mfu` only if its FLOPs count matches the reference. (`model` is what
    the log prints: argument dumps and configs. The frameworks' own TFLOP/s figures follow each
    framework's convention, via logparse.specs.formulas, as the frameworks compute them.)
    """

    steps: int = 400
    gpus: int = 8
    peak_tflops: float = 989.0  # H100 SXM dense BF16
    mfu: float = 0.45
    model: ModelDims = LLAMA2_7B
    seq_len: int = 4096
    global_batch: int = 128
    micro_batch: int = 1
    grad_accum: int | None = None  # default: global_batch / (micro_batch x gpus)
    warmup: int = 20  # steps ramping linearly from warmup_start of full speed
    warmup_start: float = 0.3
    first_step_factor: float = 0.08  # the first iteration carries compilation/init overhead
    noise: float = 0.02  # relative gaussian noise on step time
    dips: list[Dip] = field(default_factory=list)
    restart: tuple[int, int] | None = None  # (last step before the crash, checkpoint step resumed from)
    restart_gap_s: float = 600.0
    log_interval: int = 1
    save_interval: int | None = None
    all_ranks: bool = False  # every rank prints every line, with a launcher prefix
    reported_formula: str = "megatron-2024"  # what the framework's own TFLOP/s figure counts
    recompute: str | None = None  # Megatron's recompute_granularity
    seed: int = 0
    start: datetime = field(default_factory=lambda: datetime(2024, 9, 3, 15, 52, 43, tzinfo=timezone.utc))
    reference: Reference | None = None  # default: tests/reference_flops.py's entry for model, seq_len

    def __post_init__(self) -> None:
        if self.reference is None:
            self.reference = lookup(self.model, self.seq_len)
        elif self.reference.seq_len != self.seq_len:
            raise ValueError(f"reference is for sequence length {self.reference.seq_len}, not {self.seq_len}")

    @property
    def params(self) -> float:
        """N (no input embedding, LM head included), from the reference table."""
        return float(self.reference.params)

    @property
    def flops_per_token(self) -> float:
        """The truth's training FLOPs per token, from the reference table."""
        return float(self.reference.flops_per_token)

    @property
    def tokens_per_step(self) -> int:
        return self.global_batch * self.seq_len

    @property
    def stable_step_time(self) -> float:
        """Seconds per step at the target MFU."""
        return self.flops_per_token * self.tokens_per_step / (self.mfu * self.peak_tflops * 1e12 * self.gpus)

    @property
    def ga(self) -> int:
        return self.grad_accum or max(1, self.global_batch // (self.micro_batch * self.gpus))


@dataclass
class StepTruth:
    step: int
    time_s: float
    speed: float  # fraction of full speed
    loss: float
    attempt: int


def simulate(spec: Spec) -> tuple[list[StepTruth], dict[str, Any]]:
    """Per-step truth, in the order the log prints it (a restart repeats steps)."""
    rng = random.Random(spec.seed)
    attempts: list[range] = [range(1, spec.steps + 1)]
    if spec.restart:
        crash, resume = spec.restart
        attempts = [range(1, crash + 1), range(resume + 1, spec.steps + 1)]
    out: list[StepTruth] = []
    stable_step_time = spec.stable_step_time
    for a, steps in enumerate(attempts):
        for i, step in enumerate(steps):
            if a == 0:
                speed = _warm(spec, i)
            else:
                speed = _warm(
                    Spec(
                        warmup=max(3, spec.warmup // 4),
                        warmup_start=spec.warmup_start,
                        first_step_factor=spec.first_step_factor,
                    ),
                    i,
                )
            for d in spec.dips:
                if d.start <= step < d.start + d.length:
                    speed *= d.factor
            noise = max(0.5, 1.0 + rng.gauss(0.0, spec.noise))
            t = stable_step_time / speed * noise
            loss = 10.4 * math.exp(-step / 150) + 2.1 + rng.gauss(0, 0.01)
            out.append(StepTruth(step, t, speed, loss, a))
    dip_ranges = [(d.start, d.start + d.length - 1) for d in spec.dips]
    truth = {
        "stable_mfu": spec.mfu,
        "warmup_steps": spec.warmup,
        "dips": dip_ranges,
        "restart": {"at_step": spec.restart[0], "resumed_from": spec.restart[1]} if spec.restart else None,
        "tokens_per_s": spec.tokens_per_step / spec.stable_step_time,
        "flops_per_token": spec.flops_per_token,
        "params": spec.params,
        "step_time_s": spec.stable_step_time,
    }
    return out, truth


def _warm(spec: Spec, i: int) -> float:
    if i == 0:
        return spec.first_step_factor
    if i < spec.warmup:
        return spec.warmup_start + (1 - spec.warmup_start) * i / spec.warmup
    return 1.0


STRAGGLER_RANK = 5


def _prefixed(spec: Spec, text: str, rng: random.Random) -> list[str]:
    if not spec.all_ranks:
        return [text]
    ranks = list(range(spec.gpus))
    rng.shuffle(ranks)
    return [f"[default{r}]:{text}" for r in ranks]


# ------------------------------------------------------------------------------------------------
# Megatron-LM


def _megatron_args(spec: Spec) -> list[str]:
    m = spec.model
    args = {
        "accumulate_allreduce_grads_in_fp32": False,
        "bf16": True,
        "clip_grad": 1.0,
        "context_parallel_size": 1,
        "data_parallel_size": spec.gpus,
        "eval_interval": 1000,
        "ffn_hidden_size": m.ffn_hidden,
        "fp16": False,
        "fp8": None,
        "global_batch_size": spec.global_batch,
        "group_query_attention": m.kv_heads != m.heads,
        "hidden_size": m.hidden,
        "kv_channels": m.hd,
        "log_interval": spec.log_interval,
        "log_throughput": True,
        "lr": 0.0003,
        "make_vocab_size_divisible_by": 128,
        "max_position_embeddings": spec.seq_len,
        "micro_batch_size": spec.micro_batch,
        "min_lr": 3e-05,
        "normalization": "RMSNorm",
        "num_attention_heads": m.heads,
        "num_layers": m.layers,
        "num_query_groups": m.kv_heads,
        "pipeline_model_parallel_size": 1,
        "position_embedding_type": "rope",
        "recompute_granularity": spec.recompute,
        "recompute_method": "uniform" if spec.recompute == "full" else None,
        "num_experts": m.experts,
        "moe_router_topk": m.topk if m.experts else 2,
        "moe_ffn_hidden_size": m.moe_ffn_hidden,
        "multi_latent_attention": m.mla,
        "save": "/checkpoints/llama2-7b",
        "save_interval": spec.save_interval,
        "seed": 1234,
        "seq_length": spec.seq_len,
        "swiglu": m.swiglu,
        "tensor_model_parallel_size": 1,
        "tokenizer_type": "Llama2Tokenizer",
        "train_iters": spec.steps,
        "untie_embeddings_and_output_weights": True,
        "use_distributed_optimizer": True,
        "use_flash_attn": True,
        "world_size": spec.gpus,
    }
    lines = ["------------------------ arguments ------------------------"]
    body = []
    for arg, value in args.items():
        dots = "." * (48 - len(arg))
        body.append(f"  {arg} {dots} {value}")
    lines += sorted(body, key=lambda x: x.lower())
    lines.append("-------------------- end of arguments ---------------------")
    return lines


def _megatron_line(
    spec: Spec,
    step: int,
    now: datetime,
    seconds: float,
    reported_fpt: float,
    lr: float,
    loss: float,
    grad_norm: float,
) -> str:
    """One iteration line, as training.py training_log() prints it (2024-01..2026-01 format)."""
    throughput = reported_fpt * spec.tokens_per_step / (seconds * 1e12 * spec.gpus)
    line = f" [{now:%Y-%m-%d %H:%M:%S}]"
    line += f" iteration {step:8d}/{spec.steps:8d} |"
    line += f" consumed samples: {step * spec.global_batch:12d} |"
    line += f" elapsed time per iteration (ms): {seconds * 1000.0:.1f} |"
    line += f" throughput per GPU (TFLOP/s/GPU): {throughput:.1f} |"
    line += f" learning rate: {lr:.6E} |"
    line += f" global batch size: {spec.global_batch:5d} |"
    line += " {}: {:.6E} |".format("lm loss", loss)
    line += f" loss scale: {1.0:.1f} |"
    line += f" grad norm: {grad_norm:.3f} |"
    line += f" number of skipped iterations: {0:3d} |"
    line += f" number of nan iterations: {0:3d} |"
    return line


def megatron_log(spec: Spec) -> tuple[str, dict[str, Any]]:
    """A Megatron-LM console log (format of training.py training_log, 2024-01..2026-01)."""
    steps, truth = simulate(spec)
    rng = random.Random(spec.seed + 1)
    out: list[str] = []
    now = spec.start
    ga = spec.ga

    def header(resume_from: int | None) -> None:
        nonlocal now
        out.append(
            f"using world size: {spec.gpus}, data-parallel size: {spec.gpus}, context-parallel size: 1, "
            "hierarchical context-parallel sizes: None, tensor-model-parallel size: 1, "
            "pipeline-model-parallel size: 1"
        )
        out.append("WARNING: overriding default arguments for tokenizer_type:Llama2Tokenizer")
        out.extend(_megatron_args(spec))
        out.append(f"setting number of micro-batches to constant {ga}")
        out.append("> building Llama2Tokenizer tokenizer ...")
        out.append(
            f" > padded vocab (size: {spec.model.vocab}) with 0 dummy tokens (new size: {spec.model.vocab})"
        )
        out.append("> initializing torch distributed ...")
        out.append(
            f" > number of parameters on (tensor, pipeline) model parallel rank (0, 0): {int(spec.params + spec.model.hidden * spec.model.vocab)}"
        )
        if resume_from is not None:
            out.append(
                f" loading distributed checkpoint from /checkpoints/llama2-7b at iteration {resume_from}"
            )
            out.append(
                f"  successfully loaded checkpoint from /checkpoints/llama2-7b [ t 1/1, p 1/1 ] at iteration {resume_from}"
            )
        out.append(f"[before the start of training step] datetime: {now:%Y-%m-%d %H:%M:%S}")

    header(None)
    attempt = 0
    window: list[StepTruth] = []
    for st in steps:
        if st.attempt != attempt:
            attempt = st.attempt
            window = []
            out.append("[E ProcessGroupNCCL.cpp:475] [Rank 3] Watchdog caught collective operation timeout")
            now += timedelta(seconds=spec.restart_gap_s)
            header(spec.restart[1] if spec.restart else None)
        now += timedelta(seconds=st.time_s)
        window.append(st)
        if st.step % spec.log_interval and st.step != spec.steps:
            continue
        elapsed = sum(w.time_s for w in window) / len(window)
        loss = sum(w.loss for w in window) / len(window)
        # Megatron-LM of this format's era (2024-01..2025-03) counts attention without causal halving
        reported_fpt = flops_per_token(spec.model, spec.seq_len, spec.reported_formula)
        lr = 3e-4 * min(1.0, st.step / 100)
        grad_norm = abs(rng.gauss(1.2, 0.2))

        values = (reported_fpt, lr, loss, grad_norm)
        if spec.all_ranks:
            # every rank prints its own timing; the step takes as long as the slowest rank, which is
            # STRAGGLER_RANK on most steps
            ranks = list(range(spec.gpus))
            rng.shuffle(ranks)
            slowest = STRAGGLER_RANK % spec.gpus if rng.random() < 0.7 else rng.randrange(spec.gpus)
            for r in ranks:
                seconds = elapsed if r == slowest else elapsed * (1 - rng.uniform(0.002, 0.02))
                out.append(f"[default{r}]:{_megatron_line(spec, st.step, now, seconds, *values)}")
        else:
            out.append(_megatron_line(spec, st.step, now, elapsed, *values))
        window = []
        if spec.save_interval and st.step % spec.save_interval == 0:
            out.append(
                f"saving checkpoint at iteration {st.step:7d} to /checkpoints/llama2-7b in torch_dist format"
            )
            out.append(
                f"  successfully saved checkpoint from iteration {st.step:7d} to /checkpoints/llama2-7b"
            )
    out.append(f"[after training is done] datetime: {now:%Y-%m-%d %H:%M:%S}")
    return "\n".join(out) + "\n", truth


# ------------------------------------------------------------------------------------------------
# DeepSpeed


def deepspeed_log(spec: Spec, steps_per_print: int = 10) -> tuple[str, dict[str, Any]]:
    """A DeepSpeed engine log with gradient accumulation (config dump, [Rank 0] step=, timer lines)."""
    steps, truth = simulate(spec)
    rng = random.Random(spec.seed + 2)
    now = spec.start
    ga = spec.ga
    dp = spec.global_batch // (spec.micro_batch * ga)
    truth["grad_accum"] = ga

    def ts() -> str:
        return now.strftime("%Y-%m-%d %H:%M:%S,") + f"{now.microsecond // 1000:03d}"

    out = [
        f"[{ts()}] [INFO] [real_accelerator.py:203:get_accelerator] Setting ds_accelerator to cuda (auto detect)",
        f"[{ts()}] [INFO] [logging.py:96:log_dist] [Rank 0] DeepSpeed info: version=0.14.0, git-hash=unknown, git-branch=unknown",
        f"[{ts()}] [INFO] [config.py:984:print] DeepSpeedEngine configuration:",
    ]
    cfg = {
        "bfloat16_enabled": True,
        "fp16_enabled": False,
        "gradient_accumulation_steps": ga,
        "gradient_clipping": 1.0,
        "steps_per_print": steps_per_print,
        "train_batch_size": spec.global_batch,
        "train_micro_batch_size_per_gpu": spec.micro_batch,
        "wall_clock_breakdown": False,
        "world_size": dp,
        "zero_enabled": True,
        "zero_optimization_stage": 2,
    }
    for arg, value in sorted(cfg.items()):
        dots = "." * (29 - len(arg))
        out.append(f"[{ts()}] [INFO] [config.py:988:print]   {arg} {dots} {value}")
    out.append(f"[{ts()}] [INFO] [config.py:974:print_user_config]   json = {{")
    out.append(f'    "train_batch_size": {spec.global_batch},')
    out.append(f'    "train_micro_batch_size_per_gpu": {spec.micro_batch},')
    out.append(f'    "gradient_accumulation_steps": {ga},')
    out.append(f'    "steps_per_print": {steps_per_print}')
    out.append("}")
    total_time = 0.0
    for st in steps:
        now += timedelta(seconds=st.time_s)
        total_time += st.time_s
        if st.step % steps_per_print:
            continue
        lr = 3e-4 * min(1.0, st.step / 100)
        for text in _prefixed(
            spec,
            f"[{ts()}] [INFO] [logging.py:96:log_dist] [Rank 0] step={st.step}, skipped=0, "
            f"lr=[{lr}, {lr}], mom=[(0.9, 0.95), (0.9, 0.95)]",
            rng,
        ):
            out.append(text)
        curr = spec.global_batch / st.time_s
        avg = spec.global_batch * st.step / total_time
        out += _prefixed(
            spec,
            f"[{ts()}] [INFO] [timer.py:260:stop] epoch=0/micro_step={st.step * ga}/global_step={st.step}, "
            f"RunningAvgSamplesPerSec={avg}, CurrSamplesPerSec={curr}, MemAllocated=14.32GB, "
            f"MaxMemAllocated=38.49GB",
            rng,
        )
    return "\n".join(out) + "\n", truth


# ------------------------------------------------------------------------------------------------
# torchtitan


def torchtitan_log(
    spec: Spec, log_freq: int = 10, peak_tflops: float | None = None
) -> tuple[str, dict[str, Any]]:
    """A torchtitan log (metrics.py format, rank 0 filtered with --tee): per-device tps/tflops/mfu."""
    steps, truth = simulate(spec)
    peak = peak_tflops or spec.peak_tflops
    now = spec.start

    def ts() -> str:
        return now.strftime("%Y-%m-%d %H:%M:%S,") + f"{now.microsecond // 1000:03d}"

    total = int(spec.params + spec.model.hidden * spec.model.vocab)
    tokens_per_dp = spec.tokens_per_step // spec.gpus
    out = [
        f"[rank0]:[titan] {ts()} - root - INFO - Starting job: Llama 3 8B training",
        f"[rank0]:[titan] {ts()} - root - INFO - Peak FLOPS used for computing MFU: {peak * 1e12:.3e}",
        f"[rank0]:[titan] {ts()} - root - INFO - Model llama3 8B size: {total:,} total parameters",
        f"[rank0]:[titan] {ts()} - root - INFO - Trainer is initialized with {tokens_per_dp} tokens per DP rank, "
        f"{spec.tokens_per_step} tokens per train step, gradient accumulation steps {spec.ga}, maximum context "
        f"length {spec.seq_len}, total steps {spec.steps} (warmup {spec.warmup})",
        f"[rank0]:[titan] {ts()} - root - INFO - Training starts at step 1",
    ]
    window: list[StepTruth] = []
    for st in steps:
        now += timedelta(seconds=st.time_s)
        window.append(st)
        if st.step != 1 and st.step % log_freq:
            continue
        elapsed = sum(w.time_s for w in window)
        tps = spec.tokens_per_step / spec.gpus * len(window) / elapsed
        tflops = spec.flops_per_token * tps / 1e12
        mfu = 100 * spec.flops_per_token * tps / (peak * 1e12)
        out.append(
            f"[rank0]:[titan] {ts()} - root - INFO - step: {st.step:2}  loss: {st.loss:8.5f}  grad_norm: "
            f"{1.25:7.4f}  memory: {61.23:5.2f}GiB({77.41:.2f}%)  tps: {round(tps):,}  tflops: {tflops:,.2f}  "
            f"mfu: {mfu:.2f}%"
        )
        window = []
    out.append(f"[rank0]:[titan] {ts()} - root - INFO - Training completed")
    return "\n".join(out) + "\n", truth


# ------------------------------------------------------------------------------------------------
# nanoGPT


def nanogpt_log(spec: Spec, log_interval: int = 1, eval_interval: int = 250) -> tuple[str, dict[str, Any]]:
    """A nanoGPT train.py log: config echo, iteration lines with the EMA-smoothed A100-relative mfu."""
    steps, truth = simulate(spec)
    m = spec.model
    out = [
        "Overriding config with config/train_gpt2.py:",
        f"batch_size = {spec.micro_batch}",
        f"block_size = {spec.seq_len}",
        f"gradient_accumulation_steps = {spec.ga * spec.gpus}",
        f"max_iters = {spec.steps}",
        f"tokens per iteration will be: {spec.tokens_per_step:,}",
        f"defaulting to vocab_size of GPT-2 to {m.vocab} ({m.vocab - 47} rounded up for efficiency)",
        f"number of parameters: {spec.params / 1e6:.2f}M",
    ]
    running = -1.0
    for i, st in enumerate(steps):
        if st.step % eval_interval == 0:
            out.append(f"step {st.step}: train loss {st.loss:.4f}, val loss {st.loss + 0.05:.4f}")
        if st.step % log_interval == 0:
            if i >= 5:
                # nanoGPT's estimate_mfu: per GPU, against the A100's 312 TFLOPS, EMA 0.9
                mfu = spec.flops_per_token * spec.tokens_per_step / spec.gpus / st.time_s / 312e12
                running = mfu if running == -1.0 else 0.9 * running + 0.1 * mfu
            out.append(
                f"iter {st.step}: loss {st.loss:.4f}, time {st.time_s * 1000:.2f}ms, mfu {running * 100:.2f}%"
            )
    return "\n".join(out) + "\n", truth
