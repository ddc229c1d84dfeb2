"""The canonical vocabulary: step columns, run facts and event kinds that pattern sets may fill.

Pattern files are checked against these names when they load, so a typo in a user's pattern set
is an error naming the file and the field rather than a column that silently never fills.
"""

from __future__ import annotations

from typing import Any

# Per-line values a step/progress/eval line can carry. Units are fixed by the name.
STEP_COLUMNS: dict[str, str] = {
    "step": "optimizer step as the log counts it",
    "micro_step": "micro-batch (forward/backward) counter",
    "loss": "training loss as logged",
    "lr": "learning rate (first parameter group)",
    "grad_norm": "gradient norm",
    "loss_scale": "fp16 loss scale",
    "step_time_s": "wall seconds per optimizer step",
    "global_batch_size": "samples per optimizer step",
    "skipped_iters": "iterations skipped in the log window (fp16 overflow)",
    "skipped_total": "cumulative skipped optimizer steps",
    "nan_iters": "iterations with NaN loss in the log window",
    "memory_gib": "device memory, GiB: the max allocated where the log gives it (else what the log states)",
    "memory_allocated_gib": "memory allocated by tensors now, GiB, as logged",
    "memory_max_allocated_gib": "peak memory allocated by tensors, GiB, as logged",
    "memory_reserved_gib": "memory reserved by the caching allocator now, GiB, as logged",
    "memory_max_reserved_gib": "peak memory reserved by the caching allocator, GiB, as logged",
    "timestamp": "when the line was written",
    "consumed_samples": "cumulative samples consumed",
    "consumed_tokens": "cumulative tokens consumed",
    "epoch": "fractional epoch",
    "epoch_index": "the epoch a per-epoch step counter belongs to, from 0",
    "epoch_total": "the epochs the run plans, as printed beside the epoch (`Epoch [2/10]`)",
    "global_step": "optimizer steps since the run began, as printed beside a per-epoch counter",
    "seq_len": "sequence length of the step's batch",
    "tokens_seen": "cumulative input tokens seen (all processes)",
    "tokens_per_step": "tokens in this optimizer step's global batch, as logged (fairseq wpb)",
    "reported_mfu": "the framework's own MFU, as a fraction",
    "eval_loss": "validation loss",
    "duration_s": "how long an event took, as the log prints it (a timer, a watchdog's 'ran for N ms')",
    "train_elapsed_s": "wall seconds of training so far, as the log's own clock counts them",
    "progress_n": "progress-bar position",
    "progress_total": "the counter's total as printed (n/total): planned steps, or batches in the epoch",
    "progress_elapsed_s": "progress-bar elapsed seconds",
    "progress_s_per_it": "progress-bar seconds per iteration",
}

# Throughput columns must declare their scope; the frame names them <base> or <base>_per_gpu.
SCOPED_COLUMNS: dict[str, str] = {
    "tokens_per_s": "tokens per second",
    "samples_per_s": "samples per second",
    "reported_tflops": "the framework's own TFLOP/s figure (model FLOPs)",
    "reported_hfu_tflops": "the framework's own TFLOP/s figure, counting recomputation",
}
SCOPES = ("per_gpu", "global")


def scoped_name(base: str, scope: str) -> str:
    if base.startswith("reported_") and base.endswith("tflops"):
        return f"{base}_per_gpu" if scope == "per_gpu" else f"{base}_cluster"
    return f"{base}_per_gpu" if scope == "per_gpu" else base


# Run facts from config dumps, headers and end-of-run summaries.
FACTS: dict[str, str] = {
    "world_size": "all processes (GPUs) of the job",
    "data_parallel_size": "data-parallel replicas",
    "tensor_parallel_size": "tensor-parallel degree",
    "pipeline_parallel_size": "pipeline-parallel degree",
    "context_parallel_size": "context-parallel degree",
    "expert_parallel_size": "expert-parallel degree",
    "micro_batch_size": "samples per micro-batch per GPU",
    "batch_size": "a batch size the log names no scope of (a loop's per-process batch, a global one elsewhere)",
    "global_batch_size": "samples per optimizer step (all replicas, after accumulation)",
    "grad_accum": "micro-batches per optimizer step",
    "num_microbatches": "micro-batches per optimizer step per pipeline (Megatron)",
    "seq_len": "sequence length",
    "num_layers": "transformer layers",
    "hidden_size": "model width",
    "ffn_hidden_size": "MLP width",
    "num_attention_heads": "attention heads",
    "num_query_groups": "key/value heads (GQA)",
    "group_query_attention": "GQA on",
    "kv_channels": "attention head dimension",
    "vocab_size": "vocabulary size",
    "padded_vocab_size": "vocabulary padded for tensor parallelism",
    "swiglu": "SwiGLU MLP",
    "num_experts": "MoE experts",
    "moe_router_topk": "MoE experts per token",
    "untie_embeddings": "input embedding and LM head are separate",
    "moe_ffn_hidden_size": "expert MLP width",
    "shared_expert_ffn": "shared-expert MLP width",
    "moe_dense_layers": "leading dense (non-MoE) layers",
    "moe_layer_freq": "Megatron's MoE layer pattern, as printed",
    "multi_latent_attention": "MLA on",
    "q_lora_rank": "MLA query low-rank dimension",
    "kv_lora_rank": "MLA key/value low-rank dimension",
    "qk_head_dim": "MLA query/key head dimension (no position part)",
    "qk_pos_emb_head_dim": "MLA rotary part of the query/key head",
    "v_head_dim": "MLA value head dimension",
    "mtp_layers": "multi-token-prediction layers",
    "params": "parameters (without input embedding)",
    "trainable_params": "trainable parameters as printed",
    "total_params": "all parameters as printed (input embedding included)",
    "tokens_per_step": "global tokens per optimizer step as printed",
    "tokens_per_dp_rank": "tokens per optimizer step of one data-parallel rank",
    "flops_per_token": "model FLOPs per token (forward and backward) as the log states them, by its own count",
    "flops_per_step": "model FLOPs per optimizer step as the log states them, by its own count",
    "framework_peak_tflops": "the peak the framework divides by for its own MFU",
    "bf16": "bf16 training",
    "fp16": "fp16 training",
    "fp8": "fp8 recipe",
    "recompute_granularity": "activation recomputation granularity",
    "recompute_method": "activation recomputation method",
    "log_interval": "steps between log lines",
    "train_iters": "planned optimizer steps",
    "num_epochs": "planned epochs",
    "num_examples": "examples in the training set",
    "steps_per_epoch": "optimizer steps per epoch",
    "steps_per_print": "DeepSpeed print cadence",
    "zero_stage": "DeepSpeed ZeRO stage",
    "final_runtime_s": "end-of-run wall time as the framework reports it",
    "final_samples_per_s": "end-of-run samples per second (cluster)",
    "final_steps_per_s": "end-of-run optimizer steps per second",
    "final_tokens_per_s_per_gpu": "end-of-run tokens per second per device",
    "final_loss": "end-of-run mean training loss",
    "final_epoch": "the epoch the run ended at, as its end-of-run totals print it",
    "total_flos": "framework's FLOP count for the run",
    "checkpoint_step": "iteration a checkpoint was loaded from",
    "device_name": "the GPU/accelerator model as the log names it (torch.cuda.get_device_name, nvidia-smi)",
    "listed_gpu_index": "the index of a GPU in a device listing (an nvidia-smi table row, `nvidia-smi -L`)",
    "nccl_ranks": "the ranks of an NCCL communicator (NCCL's `comm 0x.. rank R nranks N` lines)",
    "nccl_process": "a process printing NCCL's INFO lines, as host:pid",
    "repeat_index": "the number of one repeat of the whole training (a cross-validation fold, a trial)",
    "accelerator": "the kind of device the framework says it runs on (cuda, cpu, ...), naming no model",
    "gpu_count": "the GPUs the log says it uses (`Using 4 x NVIDIA A100`, `Found 8 GPUs`): the job's, or one node's",
    "single_device": "the recipe runs on one device (torchtune's *SingleDevice recipes)",
}

EVENT_KINDS: dict[str, str] = {
    "checkpoint_save": "a checkpoint is written",
    "checkpoint_load": "a checkpoint is read (resume)",
    "eval": "evaluation / validation",
    "overflow": "fp16 overflow, step skipped",
    "error": "an error (NCCL, Xid, OOM, exception)",
    "start": "training (re)starts",
    "end": "training finished, as the framework says (its end-of-run totals, an 'after training' marker)",
    "other": "anything else worth marking",
}

LINE_KINDS = ("step", "config", "event", "summary", "progress")
VALUE_TYPES = ("float", "int", "bool", "str", "timestamp", "duration")

# The public step frame (Analysis.steps, `parse`, steps.csv): these columns first, in this order, then
# whatever else the log gave
Row = dict[str, Any]
"""A log line's values by column, before they are a frame: open by nature, since the pattern sets and the
generic key map name the columns (any `x_<key>` a log prints), and a value is a number, a flag or a name."""

STEP_ORDER = (
    "step", "loss", "lr", "grad_norm", "loss_scale", "step_time_s", "tokens_per_step", "tokens_per_s",
    "tokens_per_s_per_gpu", "samples_per_s", "reported_tflops_per_gpu", "reported_mfu", "tflops_per_gpu",
    "mfu", "hfu", "global_batch_size", "skipped_iters", "nan_iters", "memory_gib", "memory_allocated_gib",
    "memory_max_allocated_gib", "memory_reserved_gib", "memory_max_reserved_gib", "timestamp", "phase",
    "segment", "line",
)  # fmt: skip

# Counts: shown as integers (pandas' nullable Int64 where some rows lack them) when every value is whole
INTEGER_COLUMNS = frozenset(
    {
        "step", "micro_step", "global_batch_size", "skipped_iters", "skipped_total", "nan_iters",
        "consumed_samples", "consumed_tokens", "epoch_index", "global_step", "seq_len", "tokens_seen",
        "tokens_per_step", "progress_n", "progress_total", "segment", "line", "rank", "step_span", "regime",
        "epoch_total",
    }
)  # fmt: skip

# Columns the pipeline keeps for itself and never shows
INTERNAL_COLUMNS = frozenset({"host", "kind"})

# The compute dtypes a dense peak is given for (specs/hardware.toml's columns) and the FLOPs formulas by name
# (specs/formulas.py pairs each with its function): words a user types and the options table offers, so
# they live in the vocabulary, where the options can name them without importing the flops stage.
DTYPES = ("bf16", "fp16", "fp8", "tf32", "fp32")
FORMULA_NAMES = ("palm", "6n", "megatron", "megatron-bridge", "megatron-2024", "narayanan")


# A column a set may leave to another: `memory_gib` is the peak memory allocated by tensors, so a line that
# prints only memory_max_allocated_gib fills it with the same value. Both readings (one pass, fast lane) apply
# it through fill_aliases, on a line's values or on a run of lines' columns alike.
ALIASES = {"memory_gib": "memory_max_allocated_gib"}


def fill_aliases(values: dict) -> None:  # type: ignore[type-arg]
    for column, source in ALIASES.items():
        if source in values and column not in values:
            values[column] = values[source]
