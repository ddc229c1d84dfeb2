"""Synthetic logs for GPT-NeoX, MaxText, nanotron, Composer / llm-foundry and OLMo v1.

Each writer takes a `Spec`, draws the run with `simulate` (so warmup, noise, dips and restarts mean
what they mean for the Megatron writer) and prints it with the framework's own format strings, line
for line (quoted in patterns/<framework>.toml and ../shared/reference/log_formats.md §6): the same
rounding (nanotron's 3 significant digits, GPT-NeoX's "%3.1f" FLOPS with units, OLMo's format_float,
Composer's ".4f"), the same windows (Composer's and OLMo's rolling throughput), the same counters
(MaxText counts steps from 0, Composer's header from 1) and the framework's own FLOPs convention for
its TFLOP/s figure. Each returns (text, truth); truth is `simulate`'s plus `format`, `logged_steps`
(the optimizer-step numbers the log prints a row for) and the framework's own figures where it has any.
"""

# The frameworks' format strings are copied as they are written ("%3.1f%s" %, "...".format): keep them so.
# ruff: noqa: UP031, UP032

from __future__ import annotations

import math
import random
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pprint import pformat
from typing import Any

from logparse.specs.formulas import flops_per_token, terms

from . import Dip, Spec, StepTruth, simulate

__all__ = ["gpt_neox_log", "maxtext_log", "nanotron_log", "composer_log", "olmo_log", "SAMPLES"]


def _lr(step: int) -> float:
    return 3e-4 * min(1.0, step / 100)


def _attempts(steps: list[StepTruth]) -> list[list[StepTruth]]:
    out: list[list[StepTruth]] = []
    for st in steps:
        if not out or st.attempt != out[-1][0].attempt:
            out.append([])
        out[-1].append(st)
    return out


# ------------------------------------------------------------------------------------------------
# GPT-NeoX


def human_readable_flops(num: float) -> str:
    """megatron/logging.py human_readable_flops."""
    for unit in ["", "KFLOPS", "MFLOPS", "GFLOPS", "TFLOPS", "PFLOPS", "EFLOPS", "ZFLOPS"]:
        if abs(num) < 1000.0:
            return "%3.1f%s" % (num, unit)
        num /= 1000.0
    return "%.1f%s" % (num, "Yi")


def _neox_flops_per_gpu(spec: Spec, iteration_time: float, checkpoint_activations: bool) -> float:
    """megatron/logging.py get_flops (Megatron-DeepSpeed's formula, recomputation factor 4 or 3)."""
    m = spec.model
    f = 4 if checkpoint_activations else 3
    b, s, L, h, v = spec.global_batch, spec.seq_len, m.layers, m.hidden, m.vocab
    per_iter = 24 * f * b * s * L * (h**2) * (1.0 + (s / (6.0 * h)) + (v / (16.0 * L * h)))
    return per_iter / (iteration_time * spec.gpus)


def _neox_arguments(spec: Spec, steps_per_print: int, checkpoint_activations: bool) -> list[str]:
    """NeoXArgs.print(): value padded with dots to column 64, then updated/default, updated first."""
    m = spec.model
    # (name, value, the dataclass default)
    args: list[tuple[str, Any, Any]] = [
        ("activation", "swiglu" if m.swiglu else "gelu", "gelu"),
        ("attention_config", ["global"] * (m.layers or 0), None),
        ("checkpoint_activations", checkpoint_activations, False),
        ("global_num_gpus", spec.gpus, None),
        ("gradient_accumulation_steps", spec.ga, 1),
        ("hidden_size", m.hidden, None),
        ("log_interval", spec.log_interval, 100),
        ("lr", 0.0003, None),
        ("max_position_embeddings", spec.seq_len, None),
        ("model_parallel_size", 1, 1),
        ("num_attention_heads", m.heads, None),
        ("num_kv_heads", m.kv_heads if m.kv_heads != m.heads else None, None),
        ("num_layers", m.layers, None),
        ("padded_vocab_size", None, None),
        ("pipe_parallel_size", 1, 0),
        ("precision", "bfloat16", None),
        ("seq_length", spec.seq_len, None),
        ("steps_per_print", steps_per_print, 10),
        ("train_batch_size", spec.global_batch, None),
        ("train_iters", spec.steps, None),
        ("train_micro_batch_size_per_gpu", spec.micro_batch, None),
        ("world_size", None, None),
        ("zero_stage", 1, 0),
    ]
    str_list = []
    for arg, value, default in args:
        dots = "." * (32 - len(arg))
        print_str = "  {} {} {}".format(arg, dots, value)
        default_info = "default" if value == default else "updated"
        print_str += "." * (64 - len(print_str))
        str_list.append({"print_str": print_str, "default_info": default_info})
    lines = ["-------------------- arguments --------------------"]
    for arg in sorted(
        sorted(str_list, key=lambda x: x["print_str"].lower()), key=lambda x: x["default_info"], reverse=True
    ):
        lines.append(arg["print_str"] + arg["default_info"])
    lines.append("---------------- end of arguments ----------------")
    return lines


def gpt_neox_log(
    spec: Spec,
    steps_per_print: int = 10,
    checkpoint_activations: bool = True,
    eval_interval: int | None = None,
) -> tuple[str, dict[str, Any]]:
    """A GPT-NeoX log: the argument dump, DeepSpeed's step lines, training_log lines and timers.

    `samples/sec` is the job's; `approx flops per GPU` is get_flops() with the recomputation factor.
    """
    steps, truth = simulate(spec)
    rng = random.Random(spec.seed + 11)
    m = spec.model
    now = spec.start
    vocab = m.vocab or 0
    padded = vocab + (-vocab) % 128

    def ts() -> str:
        return now.strftime("%Y-%m-%d %H:%M:%S,") + f"{now.microsecond // 1000:03d}"

    out: list[str] = []
    logged: list[int] = []
    reported: list[float] = []

    def header(resume_from: int | None) -> None:
        out.append("NeoXArgs.from_ymls() ['configs/llama2/7B.yml', 'configs/local_setup.yml']")
        out.extend(_neox_arguments(spec, steps_per_print, checkpoint_activations))
        out.append(
            f"NeoXArgs.configure_distributed_args() using world size: {spec.gpus} and model-parallel size: 1 "
        )
        out.append("> building HFTokenizer tokenizer ...")
        out.append(
            " > padded vocab (size: {}) with {} dummy tokens (new size: {})".format(
                vocab, padded - vocab, padded
            )
        )
        out.append("> initializing torch distributed ...")
        if resume_from is not None:
            out.append(
                f"[{ts()}] [INFO] [torch_checkpoint_engine.py:27:load] [Torch] Loading checkpoint from "
                f"/checkpoints/global_step{resume_from}/mp_rank_00_model_states.pt..."
            )
        out.append("done with setups ...")
        out.append("training ...")

    header(None)
    for attempt in _attempts(steps):
        if attempt[0].attempt:
            out.append("[E ProcessGroupNCCL.cpp:475] [Rank 5] Watchdog caught collective operation timeout")
            now += timedelta(seconds=spec.restart_gap_s)
            header(spec.restart[1] if spec.restart else None)
        window: list[StepTruth] = []
        for st in attempt:
            now += timedelta(seconds=st.time_s)
            window.append(st)
            lr = _lr(st.step)
            if st.step % steps_per_print == 0:
                out.append(
                    f"[{ts()}] [INFO] [logging.py:96:log_dist] [Rank 0] step={st.step}, skipped=0, "
                    f"lr=[{lr}, {lr}], mom=[(0.9, 0.95), (0.9, 0.95)]"
                )
            if st.step % spec.log_interval:
                continue
            elapsed = sum(w.time_s for w in window)
            iteration_time = elapsed / spec.log_interval
            samples_per_sec = spec.global_batch / iteration_time
            flops = _neox_flops_per_gpu(spec, iteration_time, checkpoint_activations)
            loss = sum(w.loss for w in window) / len(window)
            line = " samples/sec: {:.3f} |".format(samples_per_sec)
            line += " iteration {:8d}/{:8d} |".format(st.step, spec.steps)
            line += " elapsed time per iteration (ms): {:.1f} |".format(elapsed * 1000.0 / spec.log_interval)
            line += " learning rate: {:.3E} |".format(lr)
            line += f" approx flops per GPU: {human_readable_flops(flops)} |"
            line += " {}: {:.6E} |".format("lm_loss", loss)
            line += " number of skipped iterations: {:3d} |".format(0)
            line += " number of nan iterations: {:3d} |".format(0)
            out.append(line)
            fwd = iteration_time * 1000 * 0.3
            out.append(
                "time (ms) | forward: {:.2f} | backward: {:.2f} | optimizer: {:.2f} | batch generator: {:.2f}".format(
                    fwd, 2 * fwd, iteration_time * 1000 * 0.08, abs(rng.gauss(3.0, 0.5))
                )
            )
            logged.append(st.step)
            reported.append(flops / 1e12)
            window = []
            if eval_interval and st.step % eval_interval == 0:
                string = f" validation results at iteration {st.step} | "
                string += (
                    f"lm_loss value: {loss + 0.05:.6E} | lm_loss_ppl value: {math.exp(loss + 0.05):.6E} | "
                )
                out.append("-" * (len(string) + 1))
                out.append(string)
                out.append("-" * (len(string) + 1))
    truth.update(format="gpt-neox", logged_steps=logged, reported_hfu_tflops_per_gpu=reported)
    return "\n".join(out) + "\n", truth


# ------------------------------------------------------------------------------------------------
# MaxText


def _absl(now: datetime, where: str, msg: str, thread: int = 138304841739136) -> str:
    """absl's prefix: I<mmdd> <hh:mm:ss.micro> <thread> <file:line>] (no year)."""
    return f"I{now:%m%d %H:%M:%S.%f} {thread} {where}] {msg}"


def maxtext_log(
    spec: Spec, form: str = "2025", rampup_steps: int = 0, bogus_second_step: bool = True
) -> tuple[str, dict[str, Any]]:
    """A MaxText log: the Config param dump, device count, per-step `completed step:` lines.

    form "2025" (absl prefix, TFLOP/s/device, Tokens/s/device, total_weights, lm_loss, perplexity;
    `[Rampup Batch Size Phase]` lines without throughput for the first `rampup_steps` steps), "2024"
    (TFLOP/s/device, Tokens/s/device, loss) or "2023" (TFLOP/s, loss). Steps are counted from 0;
    TFLOP/s uses MaxText's explicit-GEMM formula, with causal attention halved in the 2025 form (PR
    #1988, 2025-07: `megatron`) and not before (`megatron-2024`); the second step's `seconds` is
    bogus (shorter than the step) as in real logs when `bogus_second_step`.
    """
    if form not in ("2025", "2024", "2023"):
        raise ValueError(f"unknown MaxText form {form!r}")
    steps, truth = simulate(spec)
    m = spec.model
    now = spec.start
    absl = form == "2025"
    ga = spec.ga if form == "2025" else 1
    per_device_batch = spec.global_batch / (spec.gpus * ga)
    tokens_per_device = spec.global_batch * spec.seq_len / spec.gpus
    t = terms(m, spec.seq_len, "megatron" if form == "2025" else "megatron-2024")
    tflops_per_device_step = t.total * tokens_per_device / 1e12

    def log(where: str, msg: str) -> str:
        return _absl(now, where, msg) if absl else msg

    config: dict[str, Any] = {
        "base_emb_dim": m.hidden,
        "base_mlp_dim": m.ffn_hidden,
        "base_num_decoder_layers": m.layers,
        "base_num_kv_heads": m.kv_heads,
        "base_num_query_heads": m.heads,
        "dtype": "bfloat16",
        "emb_dim": m.hidden,
        "global_batch_size_to_load": spec.global_batch,
        "global_batch_size_to_train_on": spec.global_batch,
        "head_dim": m.hd,
        "log_period": 100,
        "max_target_length": spec.seq_len,
        "mlp_activations": ["silu", "linear"] if m.swiglu else ["gelu"],
        "mlp_dim": m.ffn_hidden,
        "model_name": "llama2-7b",
        "num_decoder_layers": m.layers,
        "num_kv_heads": m.kv_heads,
        "num_query_heads": m.heads,
        "per_device_batch_size": per_device_batch,
        "remat_policy": "full",
        "run_name": "synthetic",
        "steps": spec.steps,
        "vocab_size": m.vocab,
    }
    if form == "2025":
        config["gradient_accumulation_steps"] = ga
    out = [log("pyconfig.py:1182", f"Config param {k}: {config[k]}") for k in sorted(config)]
    mesh = "OrderedDict([('data', 1), ('stage', 1), ('fsdp', {}), ('fsdp_transpose', 1), ('sequence', 1), ('tensor', 1), ('expert', 1), ('autoregressive', 1)])"
    out.append(log("maxtext_utils.py:1037", f"Num_devices: {spec.gpus}, shape {mesh.format(spec.gpus)}"))
    total_params = spec.params + (m.hidden or 0) * (m.vocab or 0)
    out.append(log("metric_logger.py:310", f"number parameters: {total_params / 1e9:.3f} billion"))
    out.append(log("maxtext_utils.py:614", "Per train step:"))
    out.append(f" Total TFLOPs: {tflops_per_device_step:.2f} ")
    out.append(
        f" split as {100 * (t.dense + t.logits) / t.total:.2f}% learnable weight flops and "
        f"{100 * t.attention / t.total:.2f}% attention flops"
    )
    logged: list[int] = []
    reported: list[float] = []
    for attempt in _attempts(steps):
        if attempt[0].attempt:
            now += timedelta(seconds=spec.restart_gap_s)
            resume = spec.restart[1] if spec.restart else attempt[0].step - 1
            out.append(log("checkpointing.py:712", f"restoring from this run's directory step {resume - 1}"))
        for st in attempt:
            now += timedelta(seconds=st.time_s)
            step = st.step - 1  # MaxText counts steps from 0
            seconds = st.time_s / 9.0 if (bogus_second_step and step == 1) else st.time_s
            rampup = form == "2025" and step < rampup_steps
            total_weights = spec.global_batch * spec.seq_len
            parts = ["[Rampup Batch Size Phase]"] if rampup else []
            parts += [f"completed step: {step}", f"seconds: {seconds:.3f}"]
            tflops = tflops_per_device_step / seconds
            if form == "2023":
                parts.append(f"TFLOP/s: {tflops:.3f}")
            elif not rampup:
                parts += [
                    f"TFLOP/s/device: {tflops:.3f}",
                    f"Tokens/s/device: {tokens_per_device / seconds:.3f}",
                ]
            if form == "2025":
                parts += [
                    f"total_weights: {total_weights}",
                    f"loss: {st.loss:.3f}",
                    f"lm_loss: {st.loss:.3f}",
                    f"perplexity: {math.exp(st.loss):.3f}",
                ]
            else:
                parts.append(f"loss: {st.loss:.3f}")
            out.append(log("metric_logger.py:226", ", ".join(parts)))
            logged.append(step)
            if not rampup:
                reported.append(tflops)
            if spec.save_interval and step and step % spec.save_interval == 0:
                msg = (
                    f"Saved a checkpoint at step {step}."
                    if form == "2025"
                    else f"saved a checkpoint at step {step}"
                )
                out.append(log("checkpointing.py:402", msg))
    truth.update(format="maxtext", logged_steps=logged, reported_tflops_per_gpu=reported)
    return "\n".join(out) + "\n", truth


# ------------------------------------------------------------------------------------------------
# nanotron


def human_format(num: float, sizes: tuple[str, ...] = ("", "K", "M", "B", "T", "P", "E")) -> str:
    """nanotron/logging/base.py human_format (3 significant digits); pass sizes with "G" for pre-2025-04-18."""
    if abs(num) < 1:
        return "{:.3g}".format(num)
    num = float("{:.3g}".format(num))
    magnitude = 0
    i = 0
    while abs(num) >= 1000 and i < len(sizes) - 1:
        magnitude += 1
        num /= 1000.0
        i += 1
    return "{}{}".format("{:f}".format(num).rstrip("0").rstrip("."), sizes[magnitude])


class _Repr:
    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


# Mirrors of nanotron's config dataclasses (src/nanotron/config), enough for pformat to print them as
# nanotron's trainer does ("Config:\n" + pformat(self.config)).
@dataclass
class GeneralArgs:
    project: str
    run: str
    seed: int = 42
    step: int | None = None
    consumed_train_samples: int | None = None
    benchmark_csv_path: str | None = None
    ignore_sanity_checks: bool = True


@dataclass
class ParallelismArgs:
    dp: int
    pp: int
    tp: int
    pp_engine: Any = field(
        default_factory=lambda: _Repr(
            "<nanotron.parallel.pipeline_parallel.engine.OneForwardOneBackwardPipelineEngine object at 0x7f2b1c3d5e10>"
        )
    )
    tp_mode: Any = field(default_factory=lambda: _Repr("<TensorParallelLinearMode.REDUCE_SCATTER: 2>"))
    tp_linear_async_communication: bool = True
    recompute_layer: bool = False
    expert_parallel_size: int = 1


@dataclass
class LlamaConfig:
    bos_token_id: int = 1
    eos_token_id: int = 2
    hidden_act: str = "silu"
    hidden_size: int = 4096
    initializer_range: float = 0.02
    intermediate_size: int = 11008
    is_llama_config: bool = True
    max_position_embeddings: int = 4096
    num_attention_heads: int = 32
    num_hidden_layers: int = 32
    num_key_value_heads: int | None = None
    pad_token_id: int | None = None
    pretraining_tp: int = 1
    rms_norm_eps: float = 1e-05
    rope_scaling: dict | None = None
    rope_theta: float = 10000.0
    tie_word_embeddings: bool = False
    use_cache: bool = True
    vocab_size: int = 32000


@dataclass
class RandomInit:
    std: float


@dataclass
class ModelArgs:
    model_config: LlamaConfig
    init_method: RandomInit
    dtype: Any = field(default_factory=lambda: _Repr("torch.bfloat16"))
    make_vocab_size_divisible_by: int = 1
    ddp_bucket_cap_mb: int = 25


@dataclass
class CheckpointsArgs:
    checkpoints_path: Any
    checkpoint_interval: int
    save_initial_state: bool = False
    resume_checkpoint_path: Any = None
    checkpoints_path_is_shared_file_system: bool = False


@dataclass
class LoggingArgs:
    log_level: str = "info"
    log_level_replica: str = "info"
    iteration_step_info_interval: int = 1


@dataclass
class TokensArgs:
    sequence_length: int
    train_steps: int
    micro_batch_size: int
    batch_accumulation_per_replica: int
    val_check_interval: int = -1
    limit_val_batches: int = 0
    limit_test_batches: int = 0


@dataclass
class Config:
    general: GeneralArgs
    parallelism: ParallelismArgs
    model: ModelArgs
    checkpoints: CheckpointsArgs
    logging: LoggingArgs
    tokens: TokensArgs


def nanotron_log(
    spec: Spec, suffix_1e9: str = "B", year_in_date: bool = True, node: str = "ip-26-0-160-225"
) -> tuple[str, dict[str, Any]]:
    """A nanotron log (rank 0, ANSI-coloured prefix): config pformat, parameter count, iteration lines.

    Values go through human_format (3 significant digits); `suffix_1e9` "G" gives the spelling before
    2025-04-18, "B" after. tokens_per_sec is the job's, tokens_per_sec_per_gpu / world size;
    model_tflops_per_gpu uses nanotron's get_flops (= megatron-2024, no causal halving).
    """
    steps, truth = simulate(spec)
    m = spec.model
    now = spec.start
    sizes = ("", "K", "M", suffix_1e9, "T", "P", "E")
    ga = spec.ga
    dp = spec.gpus

    def hf(x: float) -> str:
        return human_format(x, sizes)

    def prefix(level: str = "INFO") -> str:
        date = now.strftime("%m/%d/%Y %H:%M:%S" if year_in_date else "%m/%d %H:%M:%S")
        color = {"INFO": "\033[2;3m", "WARNING": "\033[1;33m"}[level]
        return f"{color}{date} [{level}|DP=0|PP=0|TP=0|{node}]\033[0m: "

    def log(msg: str, level: str = "INFO") -> list[str]:
        return [prefix(level) + line for line in msg.split("\n")]  # NewLineStreamHandler

    model_config = LlamaConfig(
        hidden_size=m.hidden,
        intermediate_size=m.ffn_hidden,
        max_position_embeddings=spec.seq_len,
        num_attention_heads=m.heads,
        num_hidden_layers=m.layers,
        num_key_value_heads=m.kv_heads,
        vocab_size=m.vocab,
    )
    config = Config(
        general=GeneralArgs(project="synthetic", run="llama2-7b_%date_%jobid"),
        parallelism=ParallelismArgs(dp=dp, pp=1, tp=1),
        model=ModelArgs(model_config=model_config, init_method=RandomInit(std=0.02)),
        checkpoints=CheckpointsArgs(
            checkpoints_path=_Repr("PosixPath('/fsx/checkpoints')"),
            checkpoint_interval=spec.save_interval or 1000,
        ),
        logging=LoggingArgs(iteration_step_info_interval=spec.log_interval),
        tokens=TokensArgs(
            sequence_length=spec.seq_len,
            train_steps=spec.steps,
            micro_batch_size=spec.micro_batch,
            batch_accumulation_per_replica=ga,
        ),
    )
    out: list[str] = []
    out += log("Config:\n" + pformat(config))
    out += log("Model Config:\n" + pformat(model_config))
    total = spec.params + (m.hidden or 0) * (m.vocab or 0)
    out += log(f"Total number of parameters: {hf(total)} ({total * 2 / 1024**2:.2f}MiB)")
    out += log(f"Local number of parameters: {hf(total)} ({total * 2 / 1024**2:.2f}MiB)")
    fpt = flops_per_token(m, spec.seq_len, "megatron-2024")
    logged: list[int] = []
    reported: list[float] = []
    for attempt in _attempts(steps):
        if attempt[0].attempt:
            now += timedelta(seconds=spec.restart_gap_s)
            out += log(f"Loading weights from /fsx/checkpoints/{spec.restart[1] if spec.restart else 0}")
        for st in attempt:
            now += timedelta(seconds=st.time_s)
            if st.step % spec.log_interval:
                continue
            ms = st.time_s * 1000  # the last iteration's own time
            tokens_per_sec = spec.global_batch * spec.seq_len / (ms / 1000)
            model_tflops = fpt * spec.global_batch * spec.seq_len / ((ms / 1000) * spec.gpus * 1e12)
            entries = [
                ("consumed_tokens", st.step * spec.global_batch * spec.seq_len),
                ("elapsed_time_per_iteration_ms", ms),
                ("tokens_per_sec", tokens_per_sec),
                ("tokens_per_sec_per_gpu", tokens_per_sec / spec.gpus),
                ("global_batch_size", spec.global_batch),
                ("lm_loss", st.loss),
                ("lr", _lr(st.step)),
                ("model_tflops_per_gpu", model_tflops),
                ("hardware_tflops_per_gpu", model_tflops),
                ("grad_norm", 0.25 + 0.1 * math.exp(-st.step / 50)),
            ]
            if st.step < 5:
                entries += [
                    ("cuda_memory_allocated", 54.2e9),
                    ("cuda_max_memory_reserved", 71.3e9),
                    ("hd_total_memory_tb", 312e9),
                    ("hd_used_memory_tb", 61.8e9),
                    ("hd_free_memory_tb", 250e9),
                ]
            log_strs = [f"iteration: {st.step} / {spec.steps}"] + [f"{tag}: {hf(v)}" for tag, v in entries]
            out += log(" | ".join(log_strs))
            logged.append(st.step)
            reported.append(model_tflops)
            if spec.save_interval and st.step % spec.save_interval == 0:
                out += log(f"Saving checkpoint at /fsx/checkpoints/{st.step}", "WARNING")
    truth.update(format="nanotron", logged_steps=logged, reported_tflops_per_gpu=reported)
    return "\n".join(out) + "\n", truth


# ------------------------------------------------------------------------------------------------
# Composer / llm-foundry


def _yaml_dump(d: dict[str, Any], indent: int = 0) -> list[str]:
    """yaml.dump of a flat-or-nested mapping of scalars (sorted keys, two-space nesting)."""
    lines = []
    for k in sorted(d):
        v = d[k]
        if isinstance(v, dict):
            lines.append(" " * indent + f"{k}:")
            lines += _yaml_dump(v, indent + 2)
        else:
            text = "true" if v is True else "false" if v is False else str(v)
            lines.append(" " * indent + f"{k}: {text}")
    return lines


def _fmt_value(v: Any) -> str:
    """composer.loggers.logger.format_log_data_value for ints and floats."""
    return str(v) if isinstance(v, int) else f"{v:.4f}"


def composer_log(
    spec: Spec, window_size: int = 10, secs_per_step: bool = True, gpu_flops_available: float | None = None
) -> tuple[str, dict[str, Any]]:
    """An llm-foundry run's console: the config block, then one `[batch=N/M]:` record per batch.

    SpeedMonitor's rolling window (`window_size` batches, logged once it fills), its flops from
    llm-foundry's flops_per_batch (6N + 12 L d s per token) and mfu against `gpu_flops_available`
    (Composer's table: 989e12 for H100 SXM bf16; default the Spec's peak); `time/secs_per_step` as in
    current Composer (one step's time), or only the windowed throughput when `secs_per_step` is False.
    """
    steps, truth = simulate(spec)
    m = spec.model
    peak = gpu_flops_available or spec.peak_tflops * 1e12
    ga = spec.ga
    device_batch = spec.global_batch // spec.gpus
    flops_per_batch = spec.flops_per_token * spec.global_batch * spec.seq_len
    cfg = {
        "device_train_batch_size": device_batch,
        "device_train_grad_accum": ga,
        "device_train_microbatch_size": spec.micro_batch,
        "global_train_batch_size": spec.global_batch,
        "max_duration": f"{spec.steps}ba",
        "max_seq_len": spec.seq_len,
        "model": {
            "d_model": m.hidden,
            "expansion_ratio": 4,
            "max_seq_len": spec.seq_len,
            "n_heads": m.heads,
            "n_layers": m.layers,
            "name": "mpt_causal_lm",
            "vocab_size": m.vocab,
        },
        "n_gpus": spec.gpus,
        "n_params": int(spec.params + (m.hidden or 0) * (m.vocab or 0)),
        "precision": "amp_bf16",
        "run_name": "llm-foundry-synthetic",
        "seed": 17,
    }
    out = ["*" * 30, "Config:"] + _yaml_dump(cfg) + ["", "*" * 30]
    logged: list[int] = []
    reported_mfu: list[float] = []
    for attempt in _attempts(steps):
        hist_wct: deque[float] = deque(maxlen=window_size + 1)
        hist_tokens: deque[int] = deque(maxlen=window_size + 1)
        hist_samples: deque[int] = deque(maxlen=window_size + 1)
        hist_flops: deque[float] = deque(maxlen=window_size + 1)
        wct = 0.0
        for st in attempt:
            n = st.step
            wct += st.time_s
            metrics: dict[str, Any] = {
                "time/batch": n - 1,  # logged at batch start: one less than [batch=N]
                "time/sample": (n - 1) * spec.global_batch,
                "time/batch_in_epoch": n - 1,
                "time/sample_in_epoch": (n - 1) * spec.global_batch,
                "time/token": (n - 1) * spec.global_batch * spec.seq_len,
                "time/token_in_epoch": (n - 1) * spec.global_batch * spec.seq_len,
                "trainer/device_train_microbatch_size": spec.micro_batch,
                "loss/train/total": st.loss,
                "metrics/train/LanguageCrossEntropy": st.loss,
                "metrics/train/LanguagePerplexity": math.exp(st.loss),
                "lr-DecoupledAdamW/group0": _lr(n),
            }
            hist_wct.append(wct)
            hist_samples.append(n * spec.global_batch)
            hist_tokens.append(n * spec.global_batch * spec.seq_len)
            hist_flops.append(flops_per_batch)
            if len(hist_wct) == hist_wct.maxlen:
                elapsed = hist_wct[-1] - hist_wct[0]
                batches_per_sec = (len(hist_samples) - 1) / elapsed
                samples_per_sec = (hist_samples[-1] - hist_samples[0]) / elapsed
                tokens_per_sec = (hist_tokens[-1] - hist_tokens[0]) / elapsed
                metrics.update(
                    {
                        "throughput/batches_per_sec": batches_per_sec,
                        "throughput/samples_per_sec": samples_per_sec,
                        "throughput/device/batches_per_sec": batches_per_sec / spec.gpus,
                        "throughput/device/samples_per_sec": samples_per_sec / spec.gpus,
                        "throughput/tokens_per_sec": tokens_per_sec,
                        "throughput/device/tokens_per_sec": tokens_per_sec / spec.gpus,
                    }
                )
            if len(hist_flops) == hist_flops.maxlen:
                flops_per_sec = (sum(hist_flops) - hist_flops[0]) / (hist_wct[-1] - hist_wct[0])
                device_flops = flops_per_sec / spec.gpus
                metrics.update(
                    {
                        "throughput/flops_per_sec": flops_per_sec,
                        "throughput/device/flops_per_sec": device_flops,
                        "throughput/device/mfu": device_flops / peak,
                    }
                )
                reported_mfu.append(device_flops / peak)
            metrics.update({"time/train": wct / 3600, "time/val": 0.0, "time/total": wct / 3600})
            if secs_per_step:
                metrics["time/secs_per_step"] = hist_wct[-1] - hist_wct[-2] if len(hist_wct) > 1 else 0
            metrics["l2_norm/grad/global"] = 0.25 + 0.1 * math.exp(-n / 50)
            text = f"[batch={n}/{spec.steps}]:"
            for name, value in metrics.items():
                text += f"\n\t Train {name}: {_fmt_value(value)}"
            out.extend(text.split("\n"))
            logged.append(n)
    truth.update(format="composer", logged_steps=logged, reported_mfu=reported_mfu, window_size=window_size)
    return "\n".join(out) + "\n", truth


# ------------------------------------------------------------------------------------------------
# OLMo v1


def format_float(value: float) -> str:
    """olmo/train.py Trainer.log_metrics_to_console's format_float."""
    if value < 0.0001:
        return str(value)
    elif value > 1000:
        return f"{int(value):,d}"
    elif value > 100:
        return f"{value:.1f}"
    elif value > 10:
        return f"{value:.2f}"
    elif value > 1:
        return f"{value:.3f}"
    else:
        return f"{value:.4f}"


def olmo_log(spec: Spec, window_size: int = 20) -> tuple[str, dict[str, Any]]:
    """An OLMo v1 log: parameter counts, then a `[step=N/M]` record with indented name=value lines.

    SpeedMonitor's per-device tokens/s and batches/s over the last `window_size` batch starts (the
    first batch is not recorded), throughput/total_tokens the job's running total.
    """
    steps, truth = simulate(spec)
    m = spec.model
    now = spec.start
    device_tokens = spec.global_batch // spec.gpus * spec.seq_len

    def prefix(name: str, lineno: int) -> str:
        return f"[{now:%Y-%m-%d %H:%M:%S}] INFO     [{name}:{lineno}, rank=0] "

    total = int(spec.params + (m.hidden or 0) * (m.vocab or 0))
    out = [
        prefix("__main__", 149) + "Building model...",
        prefix("__main__", 151) + f"Total number of parameters: {total:,d}",
        prefix("__main__", 152) + f"Number of non-embedding parameters: {int(spec.params):,d}",
        prefix("__main__", 153) + "Peak GPU Memory (MB) before fsdp: 26959",
        prefix("olmo.train", 1050) + "Pre-train system metrics",
    ]
    logged: list[int] = []
    for attempt in _attempts(steps):
        if attempt[0].attempt:
            now += timedelta(seconds=spec.restart_gap_s)
        starts: deque[float] = deque()
        tokens: deque[int] = deque()
        wct = 0.0
        for i, st in enumerate(attempt):
            if i:  # record=not first_batch
                if len(starts) >= window_size:
                    starts.popleft()
                    tokens.popleft()
                starts.append(wct)
                tokens.append(device_tokens)
            wct += st.time_s
            now += timedelta(seconds=st.time_s)
            if st.step % spec.log_interval:
                continue
            metrics: dict[str, float] = {
                "train/CrossEntropyLoss": st.loss,
                "train/Perplexity": math.exp(st.loss),
                "optim/total_grad_norm": 0.25 + 0.1 * math.exp(-st.step / 50),
                "throughput/total_tokens": st.step * spec.global_batch * spec.seq_len,
            }
            if starts:
                interval = wct - starts[0]
                metrics["throughput/device/tokens_per_second"] = sum(tokens) / interval
                metrics["throughput/device/batches_per_second"] = len(starts) / interval
            if st.step < 3 or st.step % 10 == 0:
                metrics["System/Peak GPU Memory (MB)"] = 43309.5
            out.append(prefix("olmo.train", 1173) + f"[step={st.step}/{spec.steps}]")
            out += [f"    {name}={format_float(value)}" for name, value in metrics.items()]
            logged.append(st.step)
            if spec.save_interval and st.step % spec.save_interval == 0:
                out.append(prefix("olmo.train", 1203) + f"Checkpoint saved to /checkpoints/step{st.step}")
    truth.update(format="olmo", logged_steps=logged, window_size=window_size)
    return "\n".join(out) + "\n", truth


# ------------------------------------------------------------------------------------------------
# one small sample log per format (Llama-2-7B on 8 x H100 at 45% MFU)

SAMPLES: dict[str, tuple[Any, Spec]] = {
    # 120 steps, DeepSpeed step lines every 10, a slow patch at 80-82
    "gpt-neox_llama2-7b_8xh100": (gpt_neox_log, Spec(steps=120, seed=21, dips=[Dip(80, 3, 0.5)])),
    # 150 steps with the absl prefix, counted from 0; the second step's timing is bogus
    "maxtext_llama2-7b_8xh100": (maxtext_log, Spec(steps=150, seed=22, save_interval=100)),
    # 150 steps: config pformat, then one human_format line per step
    "nanotron_llama2-7b_8xh100": (nanotron_log, Spec(steps=150, seed=23, save_interval=100)),
    # 16 batches (about 25 lines each), throughput once the 10-batch window fills
    "composer_llama2-7b_8xh100": (composer_log, Spec(steps=16, warmup=4, seed=24)),
    # 40 steps of 7-8 lines each
    "olmo_llama2-7b_8xh100": (olmo_log, Spec(steps=40, warmup=8, seed=25)),
}
