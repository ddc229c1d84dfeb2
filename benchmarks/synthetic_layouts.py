"""Write a corpus of training logs in layouts drawn at random from the ways custom loops print a step, with the
values each must read as, for benchmarks/read_unseen.py to measure.

    python benchmarks/synthetic_layouts.py OUT [--n 300] [--seed 0]
    python benchmarks/read_unseen.py OUT --quiet

Each log combines one choice per axis: a line prefix (none, a logging or loguru stamp, a rank label), a step
counter (`step 12`, `Step 12/500`, `[12/500]`, `iter 12`, `Epoch 1 Step 12`, `global_step=12`, ...), the pair
style (`key: v`, `key=v`, `key v`), the separator (` | `, `, `, two blanks, ` - `, a tab), the loss key and the
other keys (learning rate, a step time in ms or s, tokens/s, grad norm, memory in MiB or GiB), start-up lines and
an evaluation line among the steps. The expected values are the printed text read back (seconds, GiB), not
logparse's output. The names say the choices, so the failures group by axis (`--by-axis`).

Real logs are messier than any grammar: this finds the holes in the common ground, the public excerpts measure
the rest.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path


def _clock(t: float) -> str:
    """12:00:00 plus t seconds, as HH:MM:SS."""
    t = int(t)
    return f"{12 + t // 3600:02d}:{t // 60 % 60:02d}:{t % 60:02d}"


# each takes the seconds since the run began
PREFIXES = {
    "none": lambda t: "",
    "logging": lambda t: f"2024-05-01 {_clock(t)},123 - INFO - ",
    "loguru": lambda t: f"2024-05-01 {_clock(t)}.123 | INFO     | train:main:88 - ",
    "brackets": lambda t: f"[2024-05-01 {_clock(t)}] ",
    "rank": lambda t: "[rank0]: ",
    "root": lambda t: "INFO:root:",
}
COUNTERS = {
    "step": lambda s, n, e: f"step {s}",
    "Step_total": lambda s, n, e: f"Step {s}/{n}",
    "brackets_total": lambda s, n, e: f"[{s}/{n}]",
    "iter": lambda s, n, e: f"iter {s}",
    "Iteration": lambda s, n, e: f"Iteration {s}",
    "epoch_step": lambda s, n, e: f"Epoch {e} Step {s}",
    "epoch_brackets": lambda s, n, e: f"Epoch [{e}/3], Step [{s}/{n}]",
    "global_step_eq": lambda s, n, e: f"global_step={s}",
    "step_colon": lambda s, n, e: f"step: {s}",
    "padded": lambda s, n, e: f"step {s:06d}",
    "Iter_brackets": lambda s, n, e: f"Iter [{s}/{n}]",
    "Batch_total": lambda s, n, e: f"Batch {s}/{n}",
    "epoch_iter_brackets": lambda s, n, e: f"[Epoch {e}][Iter {s}/{n}]",
    "Epoch_mm": lambda s, n, e: f"Epoch [{e}][{s}/{n}]",
    "update": lambda s, n, e: f"Update {s}",
    "paren_total": lambda s, n, e: f"({s}/{n})",
    "step_of": lambda s, n, e: f"step {s} of {n}",
    "Train_Epoch_batch": lambda s, n, e: f"Train Epoch: {e} [{s}/{n}]",
}
PAIRS = {
    "colon": "{k}: {v}",
    "equals": "{k}={v}",
    "space": "{k} {v}",
}
SEPARATORS = {"pipe": " | ", "comma": ", ", "blanks": "  ", "dash": " - ", "tab": "\t"}
LOSS_KEYS = ["loss", "train_loss", "Loss", "total_loss", "lm_loss", "train/loss"]
LR_KEYS = ["lr", "learning_rate", "LR", "learning rate"]
# (key, how the value is printed, the factor to seconds)
TIMES = [
    ("time", "{ms:.2f}ms", 1e-3),
    ("dt", "{ms:.2f}ms", 1e-3),
    ("step_time", "{s:.3f}s", 1.0),
    ("time/step", "{s:.3f}", 1.0),
    ("batch_time", "{s:.3f}", 1.0),
    ("speed", "{s:.2f}s/it", 1.0),
    ("it/s", "{r:.2f}", "inverse"),
    ("time(ms)", "{ms:.1f}", 1e-3),
    ("time", "{s:.3f} ({s:.3f})", 1.0),
]
TOKENS = ["tok/s", "tokens/s", "tokens_per_sec", "tps", "throughput(tokens/s)"]
NORMS = ["grad_norm", "gnorm", "grad norm", "norm"]
# (key, how the value is printed, the factor to GiB)
MEMORY = [
    ("mem", "{mib:.0f}MiB", 1 / 1024),
    ("memory", "{gib:.2f}GiB", 1.0),
    ("max_mem(MiB)", "{mib:.0f}", 1 / 1024),
    ("peak_mem_gib", "{gib:.2f}", 1.0),
]
# how a record is printed: one line of pairs after its counter; a Python dict or a JSON object with the step as a
# key; a heading line with the counter, then an indented `key: value` line per value; a table, its header once
STYLES = ["line", "line", "line", "dict", "json", "multiline", "table"]
STARTUP = [
    "Starting training with {n} steps",
    "model params: 124.44M",
    "Loading dataset from /data/train.bin",
]


def one_log(rng: random.Random, index: int) -> tuple[str, str, dict]:
    prefix = rng.choice(list(PREFIXES))
    counter = rng.choice(list(COUNTERS))
    pair = rng.choice(list(PAIRS))
    sep = rng.choice(list(SEPARATORS))
    if pair == "space" and sep == "blanks":
        sep = "pipe"  # `loss 2.1  lr 3e-4` reads either way; keep the grammar unambiguous
    loss_key = rng.choice(LOSS_KEYS)
    if pair == "space":
        loss_key = loss_key.replace("/", "_")
    lr_key = rng.choice(LR_KEYS) if rng.random() < 0.7 else None
    time = rng.choice(TIMES) if rng.random() < 0.7 else None
    tokens = rng.choice(TOKENS) if rng.random() < 0.4 else None
    norm = rng.choice(NORMS) if rng.random() < 0.4 else None
    if norm == "grad norm" and pair != "colon":
        norm = "grad_norm"
    if lr_key == "learning rate" and pair != "colon":
        lr_key = "learning_rate"  # a key with a blank reads only before a colon
    memory = rng.choice(MEMORY) if rng.random() < 0.3 else None
    style = rng.choice(STYLES)
    running = style == "line" and pair != "space" and rng.random() < 0.2
    lr_list = style == "line" and pair != "space" and rng.random() < 0.15
    tensor = style == "line" and pair != "space" and not running and rng.random() < 0.1
    if style != "line":
        # a record of named numbers: the key says the unit, the value is a bare number
        time = ("step_time", "{s:.3f}", 1.0) if time else None
        memory = ("peak_mem_gib", "{gib:.2f}", 1.0) if memory else None
        counter = "step"
        loss_key = loss_key if style != "table" else loss_key.replace(" ", "_")
        lr_key = lr_key.replace(" ", "_") if lr_key else None
        norm = norm.replace(" ", "_") if norm else None
    every = rng.choice([1, 10, 50])
    total = every * 20
    eval_line = rng.random() < 0.4
    startup = rng.random() < 0.5

    lines: list[str] = []
    expect: dict = {"steps": [], "loss": {}}
    if lr_key:
        expect["lr"] = {}
    if time:
        expect["step_time_s"] = {}
    if tokens:
        expect["tokens_per_s"] = {}
    if norm:
        expect["grad_norm"] = {}
    if memory:
        expect["memory_gib"] = {}
    if startup:
        lines += [PREFIXES[prefix](0) + s.format(n=total) for s in STARTUP]
    loss = 10.0
    evals = 0
    clock = 5.0
    for k in range(1, 11):
        step = k * every
        loss = loss * rng.uniform(0.85, 0.98)
        # (a running mean printed beside the value, in brackets: `loss: 2.3456 (2.5012)`; a tensor's repr)
        text = f"{loss:.4f} ({loss * 1.05:.4f})" if running else f"{loss:.4f}"
        if tensor:
            text = f"tensor({loss:.4f}, device='cuda:0')"
        fields = [(loss_key, text)]
        row = {"loss": float(f"{loss:.4f}")}
        if lr_key:
            lr = 3e-4 * min(1.0, k / 5)
            # (a list of one param group's lr, as `scheduler.get_last_lr()` prints)
            fields.append((lr_key, f"[{lr:.2e}]" if lr_list else f"{lr:.2e}"))
            row["lr"] = float(f"{lr:.2e}")
        ms = rng.uniform(180, 220)  # this interval's steps' mean time
        clock += every * ms / 1000
        if time:
            key, form, factor = time
            text = form.format(ms=ms, s=ms / 1000, r=1000 / ms)
            fields.append((key, text))
            number = float(text.split(" (")[0].removesuffix("s/it").rstrip("ms").rstrip("s"))
            if factor == "inverse":
                row["step_time_s"] = 1 / number
            else:
                row["step_time_s"] = number * factor if "ms" in form else number
        if tokens:
            tps = rng.uniform(40000, 50000)
            fields.append((tokens, f"{tps:.1f}"))
            row["tokens_per_s"] = float(f"{tps:.1f}")
        if norm:
            g = rng.uniform(0.5, 2.0)
            fields.append((norm, f"{g:.4f}"))
            row["grad_norm"] = float(f"{g:.4f}")
        if memory:
            key, form, factor = memory
            gib = 12.5 + k * 0.01
            text = form.format(gib=gib, mib=gib * 1024)
            fields.append((key, text))
            row["memory_gib"] = float(text.rstrip("MiB").rstrip("GiB")) * factor
        epoch = 1 + (step - 1) // total
        at = PREFIXES[prefix](clock)
        if style == "line":
            head = COUNTERS[counter](step, total, epoch)
            body = SEPARATORS[sep].join(PAIRS[pair].format(k=key, v=value) for key, value in fields)
            lines.append(at + head + SEPARATORS[sep] + body)
        elif style in ("dict", "json"):
            q = "'" if style == "dict" else '"'
            items = [(f"{q}step{q}", str(step))] + [(f"{q}{key}{q}", value) for key, value in fields]
            lines.append(at + "{" + ", ".join(f"{key}: {value}" for key, value in items) + "}")
        elif style == "multiline":
            lines.append(at + f"Step {step}/{total}")
            # (a launcher's rank label starts every line a process prints; a logger's prefix only its message's first)
            cont = at if prefix == "rank" else ""
            lines += [f"{cont}    {key}: {value}" for key, value in fields]
        else:  # a table: its header once, then a row per step
            names = ["step"] + [key for key, _ in fields]
            widths = [max(12, len(name)) for name in names]
            if k == 1:
                lines.append(at + "  ".join(f"{name:>{w}}" for name, w in zip(names, widths, strict=False)))
            values = [str(step)] + [v for _, v in fields]
            lines.append(at + "  ".join(f"{value:>{w}}" for value, w in zip(values, widths, strict=False)))
        expect["steps"].append(step)
        for column, value in row.items():
            if k in (1, 2, 5, 10):
                expect[column][str(step)] = value
        if eval_line and k in (5, 10) and style != "table":
            lines.append(PREFIXES[prefix](clock) + f"Validation at step {step}: val_loss={loss * 1.1:.4f}")
            evals += 1
    if evals:
        expect["events_count"] = {"eval": evals}
    name = (
        f"{index:03d}-{style}-{prefix}-{counter}-{pair}-{sep}-{loss_key.replace('/', '_').replace(' ', '_')}"
    )
    name += f"-{'lr' if lr_key else 'nolr'}-{time[0].replace('/', '_') if time else 'notime'}"
    name += f"-{'eval' if evals else 'noeval'}-{'startup' if startup else 'bare'}-every{every}"
    axes = {
        "style": style,
        "prefix": prefix,
        "counter": counter,
        "pair": pair,
        "sep": sep,
        "loss_key": loss_key,
        "lr_key": lr_key or "-",
        "time": time[0] if time else "-",
        "tokens": tokens or "-",
        "norm": norm or "-",
        "memory": memory[0] if memory else "-",
        "eval": str(bool(evals)),
        "running": str(running),
        "lr_list": str(lr_list),
        "tensor": str(tensor),
        "startup": str(startup),
        "every": str(every),
    }
    return name, "\n".join(lines) + "\n", {"expect": expect, "axes": axes}


def _toml_value(v) -> str:
    if isinstance(v, dict):
        return "{ " + ", ".join(f'"{k}" = {_toml_value(x)}' for k, x in v.items()) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(v)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    toml = [
        "# synthetic layouts (benchmarks/synthetic_layouts.py): expected values are the printed text read back"
    ]
    for i in range(args.n):
        name, text, entry = one_log(rng, i)
        (args.out / f"{name}.log").write_text(text)
        toml.append(f'[excerpt."{name}"]')
        toml.append(f"axes = {_toml_value(entry['axes'])}")
        toml.append(f'[excerpt."{name}".expect]')
        for key, value in entry["expect"].items():
            toml.append(f"{key} = {_toml_value(value)}")
        toml.append("")
    (args.out / "SOURCES_unseen.toml").write_text("\n".join(toml))
    print(f"wrote {args.n} logs to {args.out}")


if __name__ == "__main__":
    main()
