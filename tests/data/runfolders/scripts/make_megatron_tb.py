"""Write megatron_tb/: a synthetic 200-iteration Megatron-LM GPT pretraining run's TensorBoard file,
its truth record and its --log-progress progress.txt, with Megatron's exact tag names and format strings.

Tag names and the order of the add_scalar calls follow megatron/training/training.py training_log()
(NVIDIA/Megatron-LM, commit d98e8a64ddf34856e74b24714e3bedb2f5a39553; lines in README.md) for a run with
    --tensorboard-dir <dir> --tensorboard-log-interval 1 --log-interval 1 --log-timers-to-tensorboard
    --log-throughput --log-params-norm --log-num-zeros-in-grad --bf16 (loss-scale 1.0) --log-progress
    --save-interval 50, world size 64, global batch 1024, seq length 4096.
Values are synthetic (not from a real run); the writer is torch.utils.tensorboard.SummaryWriter, which is
what Megatron uses (megatron/training/global_vars.py). walltime is passed explicitly: a synthetic clock
starting at 1725378763 (iteration 1 begins then) plus the cumulative iteration time.

    python make_megatron_tb.py OUTDIR     # writes OUTDIR/tensorboard/events..., OUTDIR/truth.jsonl, OUTDIR/progress.txt
"""
import json
import math
import os
import random
import struct
import sys
import time
from datetime import datetime, timezone

from torch.utils.tensorboard import SummaryWriter

OUT = sys.argv[1] if len(sys.argv) > 1 else "megatron_tb"
T_START = 1725378763.0          # iteration 1 starts here (synthetic clock)
ITERS = 200
WORLD = 64
GBS = 1024
SEQ = 4096
NOMINAL_S = 6.8
NOMINAL_TFLOPS = 440.0
FLOPS_PER_ITER = NOMINAL_TFLOPS * 1e12 * WORLD * NOMINAL_S  # model FLOPs of one global batch
PEAK_LR, MIN_LR, WARMUP = 3.0e-4, 3.0e-5, 20
SAVE_INTERVAL = 50
JOB_ID = "4184172"
PROGRAM_START = T_START - 91.0   # _TRAIN_START_TIME (training.py:9), captured at import
STARTING_JOB = T_START - 87.0    # append_to_progress_log(args.save, "Starting job") (training.py:1606)
WRITER_CREATED = T_START - 84.0  # SummaryWriter built in global_vars._set_tensorboard_writer
ARGS_WRITTEN = T_START - 2.0     # write_args_to_tensorboard() (training.py:4308), just before the loop


def f32(x):
    """Round to float32: TensorBoard stores add_scalar values as float32 simple_value."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def lr_at(i):
    if i <= WARMUP:
        return PEAK_LR * i / WARMUP
    p = (i - WARMUP) / (ITERS - WARMUP)
    return MIN_LR + 0.5 * (PEAK_LR - MIN_LR) * (1 + math.cos(math.pi * p))


def ts(t):
    return datetime.fromtimestamp(t, tz=timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def main():
    rng = random.Random(1234)
    os.makedirs(os.path.join(OUT, "tensorboard"), exist_ok=True)
    real_time = time.time
    time.time = lambda: WRITER_CREATED  # file name + file_version event carry the synthetic clock
    try:
        writer = SummaryWriter(log_dir=os.path.join(OUT, "tensorboard"), max_queue=1000)
        writer.file_writer  # noqa: B018 (created lazily in some versions)
    finally:
        time.time = real_time

    # write_args_to_tensorboard(): add_text(arg, str(value), global_step=args.iteration) for every arg;
    # a representative subset here (a real run writes several hundred).
    args = {
        "num_layers": 32, "hidden_size": 4096, "ffn_hidden_size": 14336, "num_attention_heads": 32,
        "num_query_groups": 8, "seq_length": SEQ, "max_position_embeddings": SEQ,
        "micro_batch_size": 1, "global_batch_size": GBS, "train_iters": ITERS, "lr": PEAK_LR,
        "min_lr": MIN_LR, "lr_decay_style": "cosine", "lr_warmup_iters": WARMUP, "bf16": True,
        "fp16": False, "tensor_model_parallel_size": 4, "pipeline_model_parallel_size": 1,
        "context_parallel_size": 1, "data_parallel_size": 16, "world_size": WORLD,
        "log_interval": 1, "tensorboard_log_interval": 1, "log_timers_to_tensorboard": True,
        "log_throughput": True, "log_params_norm": True, "log_num_zeros_in_grad": True,
        "log_progress": True, "save_interval": SAVE_INTERVAL, "save": "/checkpoints/gpt-8b",
        "tensorboard_dir": "/checkpoints/gpt-8b/tensorboard", "padded_vocab_size": 128256,
    }
    for k, v in args.items():
        writer.add_text(k, str(v), global_step=0, walltime=ARGS_WRITTEN)

    progress = [f"{ts(STARTING_JOB)}\tJob ID: {JOB_ID}\t# GPUs: {WORLD}\tStarting job"]
    truth = open(os.path.join(OUT, "truth.jsonl"), "w")
    clock = T_START
    flops_so_far = 0.0
    params_norm = 212.0
    for it in range(1, ITERS + 1):
        if it == 1:
            dt = 12.93                       # first iteration: warm-up / allocator / NCCL setup
        elif it == 101:
            dt = 19.47                       # slow iteration (e.g. a straggler / GC pause)
        elif it == 102:
            dt = 11.26
        else:
            dt = NOMINAL_S + rng.gauss(0.0, 0.04)
        clock += dt
        flops_so_far += FLOPS_PER_ITER
        consumed = it * GBS
        loss = 3.0 + 8.0 * math.exp(-(it - 1) / 40.0) + rng.gauss(0.0, 0.03)
        grad_norm = 0.35 + 11.0 * math.exp(-(it - 1) / 12.0) + abs(rng.gauss(0.0, 0.05))
        params_norm += 0.11 + rng.gauss(0.0, 0.01)
        vals = {
            "learning-rate": f32(lr_at(it)),
            "batch-size": f32(GBS),
            "lm loss": f32(loss),
            "loss-scale": f32(1.0),
            "grad-norm": f32(grad_norm),
            "num-zeros": f32(float(rng.randint(180_000, 260_000))),
            "params-norm": f32(params_norm),
        }
        written = {}
        # training_log() order: learning-rate (3380-3381), batch-size (3388-3389), loss_dict keys
        # (3400-3401), loss-scale (3405-3406), grad-norm (3415-3416), num-zeros (3420-3423),
        # params-norm (3427-3428); then iteration-time (3564, not on the job's first iteration)
        # and throughput (3581).
        for tag in ("learning-rate", "batch-size", "lm loss", "loss-scale", "grad-norm",
                    "num-zeros", "params-norm"):
            writer.add_scalar(tag, vals[tag], it, walltime=clock)
            writer.add_scalar(tag + " vs samples", vals[tag], consumed, walltime=clock)
            written[tag] = vals[tag]  # "<tag> vs samples" has the same value at step consumed_samples
        if it != 1:
            written["iteration-time"] = f32(dt)
            writer.add_scalar("iteration-time", written["iteration-time"], it, walltime=clock)
        written["throughput"] = f32(FLOPS_PER_ITER / (dt * 1e12 * WORLD))
        writer.add_scalar("throughput", written["throughput"], it, walltime=clock)
        truth.write(json.dumps({"iteration": it, "walltime": clock, "consumed_samples": consumed,
                                "elapsed_s": dt, "scalars": written,
                                "vs_samples": list(vals)}) + "\n")
        if it % SAVE_INTERVAL == 0:
            # compute_throughputs_and_append_to_progress_log() (training.py:3722-3754); the save itself
            # is taken as instantaneous on the synthetic clock.
            job_tp = flops_so_far / ((clock - PROGRAM_START) * 1e12 * WORLD)
            start = datetime.strptime(ts(STARTING_JOB), "%Y-%m-%d %H:%M:%S").replace(tzinfo=timezone.utc)
            cum_tp = flops_so_far / ((clock - start.timestamp()) * 1e12 * WORLD)
            tokens = consumed * SEQ
            progress.append(
                f"{ts(clock)}\tJob ID: {JOB_ID}\t# GPUs: {WORLD}\t"
                f"Saved checkpoint\tIteration: {it}\t"
                f"Job throughput: {job_tp:.1f} TFLOP/s/GPU\t"
                f"Cumulative throughput: {cum_tp:.1f} TFLOP/s/GPU\t"
                f"Floating-point operations: {flops_so_far:.2e}\t"
                f"Tokens (in billions): {tokens / 10**9:.2f}")
    truth.close()
    writer.close()
    with open(os.path.join(OUT, "progress.txt"), "w") as fh:
        fh.write("".join(line + "\n" for line in progress))


if __name__ == "__main__":
    main()
