"""Synthetic NeMo, PyTorch Lightning, litgpt and Colossal-AI console logs, with the truth they were made from.

One writer per format, each following its framework's format strings line for line (quoted in
patterns/nemo.toml, lightning.toml, litgpt.toml, colossalai.toml and ../shared/reference/log_formats.md
§6b, §6g, §6h). tqdm bars are drawn as tqdm draws them (block bar, rate, Lightning's number padding) and
a bar's redraws are joined with carriage returns on one physical line, as a terminal log holds them.
Each writer returns (text, truth) with the truth of `simulate(spec)`; deterministic for a given Spec.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from . import Spec, simulate

# ------------------------------------------------------------------------------------------------
# tqdm and Lightning formatting (tqdm/std.py format_meter, format_interval, format_num; Lightning's
# Tqdm.format_num pads numbers to 5 characters)

_BLOCKS = " " + "".join(chr(c) for c in range(0x258F, 0x2587, -1))  # " ▏▎▍▌▋▊▉█"


def _interval(t: float) -> str:
    mins, s = divmod(int(t), 60)
    h, m = divmod(mins, 60)
    return f"{h:d}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


def _bar(n: int, total: int, width: int = 10) -> str:
    nsyms = len(_BLOCKS) - 1
    full, part = divmod(int(n / total * width * nsyms), nsyms)
    res = _BLOCKS[-1] * full
    if full < width:
        res += _BLOCKS[part] + _BLOCKS[0] * (width - full - 1)
    return res


def _tqdm_num(n: float) -> str:
    f = f"{n:.3g}".replace("e+0", "e+").replace("e-0", "e-")
    s = str(n)
    return f if len(f) < len(s) else s


def _lightning_num(n: float | int | str) -> str:
    padded = isinstance(n, (float, str))
    text = n if isinstance(n, str) else _tqdm_num(n)
    if padded and "e" not in text:
        if "." not in text and len(text) < 5:
            text += "."
        text += "0" * (5 - len(text))
    return text


def _postfix(metrics: dict[str, Any]) -> str:
    """tqdm.set_postfix with Lightning's Tqdm: 'k=v' joined by ', ', led by ', ' inside the bar."""
    parts = []
    for key, value in metrics.items():
        text = _lightning_num(value) if isinstance(value, (int, float)) else str(value)
        parts.append(f"{key}={text.strip()}")
    return (", " + ", ".join(parts)) if parts else ""


def _lightning_bar(desc: str, n: int, total: int, elapsed: float, postfix: str) -> str:
    """Lightning 2.x TQDMProgressBar: '{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining},
    {rate_noinv_fmt}{postfix}]', smoothing=0 so the rate is n / elapsed."""
    rate = n / elapsed if n and elapsed else None
    remaining = _interval((total - n) / rate) if rate else "?"
    rate_fmt = f"{rate:5.2f}it/s" if rate else "?it/s"
    return (
        f"{desc}: {100 * n / total:3.0f}%|{_bar(n, total)}| {n}/{total} "
        f"[{_interval(elapsed)}<{remaining}, {rate_fmt}{postfix}]"
    )


def _megatron_bar(desc: str, n: int, total: int, elapsed: float, postfix: str) -> str:
    """NeMo 1.x MegatronProgressBar: '{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt}
    [{elapsed}<{remaining}{postfix}]' with desc = 'Epoch 0: ' (tqdm's set_description adds ': ')."""
    rate = n / elapsed if n and elapsed else None
    remaining = _interval((total - n) / rate) if rate else "?"
    return (
        f"{desc}: : {100 * n / total:3.0f}%|{_bar(n, total)}| {n}/{total} "
        f"[{_interval(elapsed)}<{remaining}{postfix}]"
    )


def _tqdm_bar(desc: str, n: int, total: int, elapsed: float, rate: float | None) -> str:
    """tqdm's default bar: '{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}]',
    rate_fmt in s/it when an iteration takes more than a second."""
    remaining = _interval((total - n) / rate) if rate else "?"
    if not rate:
        rate_fmt = "?it/s"
    elif 1 / rate > 1:
        rate_fmt = f"{1 / rate:5.2f}s/it"
    else:
        rate_fmt = f"{rate:5.2f}it/s"
    return f"{desc}: {100 * n / total:3.0f}%|{_bar(n, total)}| {n}/{total} [{_interval(elapsed)}<{remaining}, {rate_fmt}]"


class _EMA:
    """tqdm.utils.EMA: exponential moving average with bias correction."""

    def __init__(self, smoothing: float = 0.3) -> None:
        self.alpha = smoothing
        self.last = 0.0
        self.calls = 0

    def __call__(self, x: float | None = None) -> float:
        beta = 1 - self.alpha
        if x is not None:
            self.last = self.alpha * x + beta * self.last
            self.calls += 1
        return self.last / (1 - beta**self.calls) if self.calls else self.last


def _lr(step: int) -> float:
    return 3e-4 * min(1.0, step / 100)


def _total_params(spec: Spec) -> int:
    """Every parameter: N (LM head included) plus the untied input embedding."""
    return int(spec.params + spec.model.hidden * spec.model.vocab)


def _lightning_startup(spec: Spec) -> list[str]:
    """lightning/pytorch/trainer/connectors/accelerator_connector.py and fabric/utilities/distributed.py."""
    out = [
        "GPU available: True (cuda), used: True",
        "TPU available: False, using: 0 TPU cores",
        "HPU available: False, using: 0 HPUs",
    ]
    out += [
        f"Initializing distributed: GLOBAL_RANK: {r}, MEMBER: {r + 1}/{spec.gpus}" for r in range(spec.gpus)
    ]
    out += [
        "-" * 100,
        "distributed_backend=nccl",
        f"All distributed processes registered. Starting with {spec.gpus} processes",
        "-" * 100,
        "",
        f"LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [{','.join(str(i) for i in range(min(spec.gpus, 8)))}]",
    ]
    return out


def _human_count(number: float) -> str:
    """Lightning's get_human_readable_count (1000-based units)."""
    labels = [" ", "K", "M", "B", "T"]
    digits = int(math.floor(math.log10(number)) + 1) if number > 0 else 1
    groups = min(int(math.ceil(digits / 3)), len(labels))
    value = number * 10 ** (-3 * (groups - 1))
    index = groups - 1
    if index < 1 or value >= 100:
        return f"{int(value):,d} {labels[index]}"
    return f"{value:,.1f} {labels[index]}"


# ------------------------------------------------------------------------------------------------
# NeMo 2.0: ProgressPrinter


def _nemo_ts(t: datetime) -> str:
    return t.strftime("%Y-%m-%d %H:%M:%S")


def _printer_value(metric: str, val: float) -> str:
    """ProgressPrinter.format_string: integral floats as ints, the rest with {val:.4}."""
    if float(val).is_integer():
        return f" | {metric}: {int(val)}"
    return f" | {metric}: {val:.4}"


def nemo2_log(spec: Spec, val_interval: int = 100, val_iters: int = 5) -> tuple[str, dict[str, Any]]:
    """A NeMo 2.0 pre-training log with ProgressPrinter(log_interval=spec.log_interval).

    As in the real line of bionemo-recipes PR #740 (iteration 120 | consumed_samples 121 with a global
    batch of 1), iteration and global_step are the step's index from 0 and consumed_samples includes
    the step. Every metric except global_step is summed since the last line and divided by
    log_interval (the first line, after one step, is divided all the same, as the code does).
    """
    steps, truth = simulate(spec)
    rng = random.Random(spec.seed + 11)
    now = spec.start
    interval = spec.log_interval
    gbs = spec.global_batch
    out = [
        f"[NeMo I {_nemo_ts(now)} nemo_logger:145] Experiments will be logged at /results/llama2_7b/default/"
        f"{now:%Y-%m-%d_%H-%M-%S}",
        *_lightning_startup(spec),
        f"[NeMo I {_nemo_ts(now)} num_microbatches_calculator:228] setting number of microbatches to constant "
        f"{spec.ga}",
        f"[NeMo I {_nemo_ts(now)} megatron_parallel:550]  > number of parameters on (tensor, pipeline) model "
        f"parallel rank (0, 0): {_total_params(spec)}",
        "Sanity checking Validation: iteration 1/2",
        "Sanity checking Validation: iteration 2/2",
    ]
    sums: dict[str, float] = {}
    val_loss: float | None = None
    for st in steps:
        now += timedelta(seconds=st.time_s)
        n = st.step - 1  # ProgressPrinter's iteration and the logged global_step, both from 0
        batch = {
            "lr": _lr(st.step),
            "consumed_samples": float(st.step * gbs),
            "global_batch_size": float(gbs),
            "global_step": float(n),
            "reduced_train_loss": st.loss,
            "train_step_timing in s": st.time_s,
        }
        if val_loss is not None:
            batch["val_loss"] = val_loss
        for key, value in batch.items():
            sums[key] = value if key == "global_step" else sums.get(key, 0.0) + value
        if n % interval == 0:
            line = f"Training epoch 0, iteration {n}/{spec.steps}"
            for key, value in sums.items():
                line += _printer_value(key, value if key == "global_step" else value / interval)
            out.append(line)
            sums = {}
        if st.step % val_interval == 0:
            out += [f"Validation: iteration {i}/{val_iters}" for i in range(1, val_iters + 1)]
            val_loss = st.loss + 0.05 + rng.gauss(0, 0.005)
            out.append(
                f"Epoch 0, global step {st.step}: 'val_loss' reached {val_loss:0.5f} (best {val_loss:0.5f}), "
                f"saving model to '/results/llama2_7b/checkpoints/model--val_loss={val_loss:.4f}-epoch=0-"
                f"consumed_samples={st.step * gbs}.0-step={n}.ckpt' as top 1"
            )
    out.append(f"`Trainer.fit` stopped: `max_steps={spec.steps}` reached.")
    truth["log_interval"] = interval
    return "\n".join(out) + "\n", truth


# ------------------------------------------------------------------------------------------------
# NeMo 1.x: Hydra config, MegatronProgressBar


def _nemo1_config(spec: Spec, val_interval: int) -> list[str]:
    m = spec.model
    yaml = f"""name: megatron_gpt
restore_from_path: null
trainer:
  devices: {min(spec.gpus, 8)}
  num_nodes: {max(1, spec.gpus // 8)}
  accelerator: gpu
  precision: bf16
  logger: false
  enable_checkpointing: false
  use_distributed_sampler: false
  max_epochs: -1
  max_steps: {spec.steps}
  log_every_n_steps: 10
  val_check_interval: {val_interval}
  limit_val_batches: 5
  accumulate_grad_batches: 1
  gradient_clip_val: 1.0
exp_manager:
  explicit_log_dir: null
  exp_dir: /results
  name: megatron_gpt
  log_step_timing: true
model:
  micro_batch_size: {spec.micro_batch}
  global_batch_size: {spec.global_batch}
  rampup_batch_size: null
  tensor_model_parallel_size: 1
  pipeline_model_parallel_size: 1
  encoder_seq_length: {spec.seq_len}
  max_position_embeddings: ${{.encoder_seq_length}}
  num_layers: {m.layers}
  hidden_size: {m.hidden}
  ffn_hidden_size: {m.ffn_hidden}
  num_attention_heads: {m.heads}
  init_method_std: 0.02
  activation: swiglu
  bias: false
  normalization: rmsnorm
  position_embedding_type: rope
  share_embeddings_and_output_weights: false
  activations_checkpoint_granularity: null
  tokenizer:
    library: sentencepiece
    model: /data/tokenizer.model
  optim:
    name: distributed_fused_adam
    lr: 0.0003"""
    return yaml.splitlines()


def nemo1_log(spec: Spec, val_interval: int = 100, val_batches: int = 5) -> tuple[str, dict[str, Any]]:
    """A NeMo 1.x megatron_gpt_pretraining.py log: the Hydra config through NeMo's logger, Lightning's
    start-up lines, then NeMo's MegatronProgressBar, whose postfix is set with refresh=False (a redraw
    shows the previous step's metrics; the bar's closing redraw shows the last step's)."""
    steps, truth = simulate(spec)
    rng = random.Random(spec.seed + 12)
    now = spec.start
    gbs = spec.global_batch
    config = _nemo1_config(spec, val_interval)
    out = [
        f"[NeMo I {_nemo_ts(now)} megatron_gpt_pretraining:36] ",
        "    ",
        "    ************** Experiment configuration ***********",
        f"[NeMo I {_nemo_ts(now)} megatron_gpt_pretraining:37] ",
        *("    " + line for line in config),
        *_lightning_startup(spec),
        f"[NeMo I {_nemo_ts(now)} megatron_base_model:574] Padded vocab_size: {spec.model.vocab}, original "
        f"vocab_size: {spec.model.vocab}, dummy tokens: 0.",
    ]
    total = spec.steps
    redraws = [_megatron_bar("Epoch 0", 0, total, 0.0, "")]
    elapsed = 0.0
    shown = ""  # the postfix the bar holds
    val_loss: float | None = None
    for st in steps:
        elapsed += st.time_s
        redraws.append(_megatron_bar("Epoch 0", st.step, total, elapsed, shown))
        metrics: dict[str, Any] = {
            "reduced_train_loss": st.loss,
            "global_step": float(st.step - 1),
            "consumed_samples": float(st.step * gbs),
            "train_step_timing in s": st.time_s,
        }
        if val_loss is not None:
            metrics["val_loss"] = val_loss
        shown = _postfix(metrics)  # set_postfix(refresh=False): seen at the next redraw
        if st.step == spec.steps:
            redraws.append(_megatron_bar("Epoch 0", st.step, total, elapsed, shown))  # close()
        if st.step % val_interval == 0 and st.step != spec.steps:
            out.append("\r" + "\r".join(redraws))
            redraws = []
            val = [
                _lightning_bar("Validation DataLoader 0", i, val_batches, 0.4 * i, "") + "\x1b[A"
                for i in range(0, val_batches + 1)
            ]
            out += ["\r" + v for v in val]
            val_loss = st.loss + 0.05 + rng.gauss(0, 0.005)
            out.append(
                f"Epoch 0, global step {st.step}: 'val_loss' reached {val_loss:0.5f} (best {val_loss:0.5f}), "
                f"saving model to '/results/megatron_gpt/checkpoints/megatron_gpt--val_loss={val_loss:.2f}-"
                f"step={st.step}-consumed_samples={float(st.step * gbs)}.ckpt' as top 10"
            )
    out.append("\r" + "\r".join(redraws))
    out.append(f"`Trainer.fit` stopped: `max_steps={spec.steps}` reached.")
    return "\n".join(out) + "\n", truth


# ------------------------------------------------------------------------------------------------
# PyTorch Lightning: TQDMProgressBar over micro-batches


def lightning_log(spec: Spec, grad_accum: int = 4) -> tuple[str, dict[str, Any]]:
    """A Lightning 2.x run with accumulate_grad_batches=grad_accum: the script prints its Hydra config,
    then Lightning's start-up lines, model summary and training bar (two redraws per micro-batch:
    the position, then the postfix). The bar's rate is the epoch's average, so the log has no step time."""
    steps, truth = simulate(spec)
    rng = random.Random(spec.seed + 13)
    micro = spec.global_batch // (spec.gpus * grad_accum)
    total_params = _total_params(spec)
    out = [
        "trainer:",
        "  accelerator: gpu",
        f"  devices: {spec.gpus}",
        "  precision: bf16-mixed",
        f"  max_steps: {spec.steps}",
        f"  accumulate_grad_batches: {grad_accum}",
        "  log_every_n_steps: 10",
        "data:",
        f"  micro_batch_size: {micro}",
        f"  seq_len: {spec.seq_len}",
        "Using bfloat16 Automatic Mixed Precision (AMP)",
        *_lightning_startup(spec),
        "",
        "  | Name  | Type             | Params | Mode ",
        "---------------------------------------------------",
        f"0 | model | LlamaForCausalLM | {_human_count(total_params):<6} | train",
        "---------------------------------------------------",
        f"{_human_count(total_params):<10} Trainable params",
        f"{_human_count(0):<10} Non-trainable params",
        f"{_human_count(total_params):<10} Total params",
        f"{f'{total_params * 4 / 1e6:,.3f}':<10} Total estimated model params size (MB)",
        "\r".join(
            ["Sanity Checking: |          | 0/? [00:00<?, ?it/s]"]
            + [_lightning_bar("Sanity Checking DataLoader 0", i, 2, 0.6 * i, "") for i in range(3)]
        ),
    ]
    total = spec.steps * grad_accum * 2  # the data loader is longer than max_steps needs
    redraws = [_lightning_bar("Epoch 0", 0, total, 0.0, "")]
    elapsed = 0.0
    shown = ""
    n = 0
    for st in steps:
        for _ in range(grad_accum):
            n += 1
            elapsed += st.time_s / grad_accum
            redraws.append(_lightning_bar("Epoch 0", n, total, elapsed, shown))  # _update_n
            shown = _postfix({"v_num": 0, "train_loss": st.loss + rng.gauss(0, 0.02)})
            redraws.append(_lightning_bar("Epoch 0", n, total, elapsed, shown))  # set_postfix
    out.append("\r" + "\r".join(redraws))
    out.append(f"`Trainer.fit` stopped: `max_steps={spec.steps}` reached.")
    truth["grad_accum"] = grad_accum
    truth["micro_batches"] = n
    return "\n".join(out) + "\n", truth


# ------------------------------------------------------------------------------------------------
# lit-gpt (2023 scripts): one line per micro-batch


def litgpt_log(
    spec: Spec, grad_accum: int = 2, eval_interval: int = 100, save_interval: int = 100
) -> tuple[str, dict[str, Any]]:
    """A lit-gpt pretraining log with gradient_accumulation_iters = grad_accum and log_interval 1:
    f"iter {iter_num} step {step_count}: loss {loss:.4f}, iter time: {ms:.2f}ms{' (optimizer.step)'}",
    iter_num from 0, step_count incremented on the optimizer-step micro-batch."""
    steps, truth = simulate(spec)
    rng = random.Random(spec.seed + 14)
    flops = spec.flops_per_token * spec.seq_len * spec.global_batch / (spec.gpus * grad_accum)
    out = [
        "Time to instantiate model: 0.41 seconds.",
        f"Measured TFLOPs: {flops * spec.gpus / 1e12:.2f}",
    ]
    iter_num = 0
    step_count = 0
    for st in steps:
        # the optimizer-step micro-batch also runs the optimizer: a little longer than the others
        shares = [1.0] * (grad_accum - 1) + [1.08]
        for i, share in enumerate(shares):
            ms = st.time_s * 1000 * share / sum(shares)
            last = i == grad_accum - 1
            if last:
                step_count += 1
            loss = st.loss + rng.gauss(0, 0.02)
            out.append(
                f"iter {iter_num} step {step_count}: loss {loss:.4f}, iter time: {ms:.2f}ms"
                f"{' (optimizer.step)' if last else ''}"
            )
            iter_num += 1
        if step_count % eval_interval == 0:
            out.append("Validating ...")
            out.append(
                f"step {iter_num - 1}: val loss {st.loss + 0.05:.4f}, val time: {4211.37 + rng.random():.2f}ms"
            )
        if step_count % save_interval == 0:
            out.append(f"Saving checkpoint to 'out/redpajama/iter-{iter_num - 1:06d}-ckpt.pth'")
    truth["grad_accum"] = grad_accum
    truth["micro_batches"] = iter_num
    return "\n".join(out) + "\n", truth


# ------------------------------------------------------------------------------------------------
# Colossal-AI: examples/language/llama/benchmark.py with performance_evaluator.py


def _wrap(text: str, width: int) -> list[str]:
    """rich's word wrap: greedy by words, words longer than the column folded."""
    lines: list[str] = []
    cur = ""
    for word in text.split(" "):
        while len(word) > width:
            if cur:
                lines.append(cur)
                cur = ""
            lines.append(word[:width])
            word = word[width:]
        cand = word if not cur else f"{cur} {word}"
        if len(cand) <= width:
            cur = cand
        else:
            lines.append(cur)
            cur = word
    if cur:
        lines.append(cur)
    return lines


class _RichLog:
    """colossalai's DistributedLogger through rich's RichHandler at 80 columns: '[%x %X]' time (blank when
    unchanged), level, 'colossalai - colossalai - LEVEL: ' and the message wrapped at column 29; every
    call writes two records, the caller's 'path:line function' and the message."""

    def __init__(self) -> None:
        self.last_time: str | None = None

    def record(self, when: datetime, message: str, level: str = "INFO") -> list[str]:
        stamp = when.strftime("[%m/%d/%y %H:%M:%S]")
        lines = _wrap(f"colossalai - colossalai - {level}: {message}", 51)
        head = f"{stamp} " if stamp != self.last_time else " " * 20
        self.last_time = stamp
        out = [(head + f"{level:<9}" + lines[0]).ljust(80)]
        out += [(" " * 29 + line).ljust(80) for line in lines[1:]]
        return out

    def info(self, when: datetime, caller: str, message: str) -> list[str]:
        return self.record(when, caller) + self.record(when, message)


def colossalai_log(spec: Spec, ignore_steps: int = 2) -> tuple[str, dict[str, Any]]:
    """A Colossal-AI llama benchmark (gemini plugin, no gradient checkpointing): the launch record, the
    model size, the Step bar (tqdm default, EMA-smoothed rate) with the last rank's loss prints, and
    the performance evaluator's end-of-run lines."""
    steps, truth = simulate(spec)
    rng = random.Random(spec.seed + 15)
    now = spec.start
    m = spec.model
    dp = spec.gpus
    batch = spec.global_batch // dp  # --batch_size: samples per data-parallel rank
    numel = _total_params(spec)
    log = _RichLog()
    out = log.info(
        now,
        "/usr/local/lib/python3.10/dist-packages/colossalai/initialize.py:75 launch",
        f"Distributed environment is initialized, world size: {spec.gpus}",
    )
    out += [
        f"Model params: {numel / 1024**3:.2f} B",
        f"Booster init max CUDA memory: {numel * 2 / dp / 1024**2:.2f} MB",
        "Booster init max CPU memory: 4412.06 MB",
    ]
    total = len(steps)
    ema = _EMA(0.3)
    elapsed = 0.0
    physical = "\r" + _tqdm_bar("Step", 0, total, 0.0, None)
    timed = 0.0
    samples = 0
    flop = 0.0
    flop_megatron = 0.0
    s, h, layers, v = spec.seq_len, m.hidden, m.layers, m.vocab
    for i, st in enumerate(steps):
        loss = st.loss + rng.gauss(0, 0.01)
        out.append(
            f"{physical}Step {i} loss: tensor({loss:.4f}, device='cuda:{spec.gpus - 1}', "
            "grad_fn=<NllLossBackward0>)"
        )
        elapsed += st.time_s
        if i >= ignore_steps:
            timed += st.time_s
            samples += batch
            flop += batch * s * numel * 2 * 3
            flop_megatron += (
                24 * 3 * batch * s * layers * h**2 * (1.0 + s / (6.0 * h) + v / (16.0 * layers * h))
            )
        avg_dt = ema(st.time_s)
        physical = "\r" + _tqdm_bar("Step", i + 1, total, elapsed, 1.0 / avg_dt)
    out.append(physical)
    throughput = samples * dp / (timed + 1e-12)
    out.append(
        f"num_samples: {samples}, dp_world_size: {dp}, flop_megatron: {flop_megatron}, flop: {flop}, "
        f"avg_duration: {timed}, avg_throughput: {throughput}"
    )
    out.append(
        f"Throughput: {throughput:.2f} samples/sec, TFLOPS per GPU by Megatron: "
        f"{flop_megatron / 1e12 / (timed + 1e-12):.2f}, TFLOPS per GPU: {flop / 1e12 / (timed + 1e-12):.2f}"
    )
    out.append(f"Max CUDA memory usage: {numel * 9 / dp / 1024**2:.2f} MB")
    truth["final_samples_per_s"] = throughput
    truth["global_batch"] = spec.global_batch
    return "\n".join(out) + "\n", truth


# ------------------------------------------------------------------------------------------------

Writer = Callable[[Spec], tuple[str, dict[str, Any]]]

# One small sample log per format: (writer, spec). Llama-2-7B on 8 x H100 at 45% MFU, global batch 128 x 4096.
SAMPLES: dict[str, tuple[Writer, Spec]] = {
    "nemo2_llama2-7b_8xh100": (nemo2_log, Spec(steps=300, log_interval=10, seed=21)),
    "nemo1_llama2-7b_8xh100": (nemo1_log, Spec(steps=240, seed=22)),
    "lightning_ga4_8xh100": (partial(lightning_log, grad_accum=4), Spec(steps=60, seed=23)),
    "litgpt_ga2_8xh100": (partial(litgpt_log, grad_accum=2), Spec(steps=150, seed=24)),
    "colossalai_llama2-7b_8xh100": (colossalai_log, Spec(steps=200, seed=25)),
}
