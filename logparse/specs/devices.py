"""The devices a log names: the default for --hw, and a GPU count of last resort.

The pattern set `devices` (patterns/devices.toml, role "common") reads torchtitan's CUDA capacity line,
nvidia-smi output and get_device_name echoes into the facts `device_name` (every line that names one)
and `listed_gpu_index` (every GPU row of a listing); Lightning's and DeepSpeed's lines that only say a
GPU is used give `accelerator`. This module turns those observations into run facts:

- `log_device`: the one device of hardware.toml the log names (source `log`, the detail naming the
  line); None with a warning when it names two different devices or one logparse has no peak for.
- `listed_gpus`: the GPU rows of the first listing (one node's GPUs), for when the log states no better
  count.
- `communicator_ranks`: the world size NCCL's own INFO lines show, for a log that states none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.errors import flag
from ..core.facts import Fact
from ..core.warnings import RunWarning
from . import hardware

# NCCL's lines, counted across the log by communicator_ranks: never run facts of their own.
NCCL_FACTS = ("nccl_ranks", "nccl_process")
# Facts stated once per device or per line, whose values differ by nature (not "a fact that changed").
LISTED_FACTS = ("device_name", "listed_gpu_index", *NCCL_FACTS)

# Lines between two rows of one listing: the new nvidia-smi table takes 4 lines per GPU (3 rows and a
# rule), `nvidia-smi -L` one, MIG devices a few more.
_MAX_ROW_GAP = 8

Observations = Mapping[str, Sequence[Any]]  # fact name -> FactObservation (value, line, pattern)


def log_device(observations: Observations, warnings: list[RunWarning]) -> Fact | None:
    """The device the log names, as a Fact whose value is its hardware.toml name; None (with a warning)
    when it names none logparse knows, or two different ones."""
    named = sorted(observations.get("device_name", ()), key=lambda o: o.line)
    if not named:
        return None
    groups: dict[str, list[Any]] = {}
    devices: dict[str, hardware.Device | None] = {}
    for o in named:
        raw = str(o.value).strip()
        dev = hardware.find(raw)
        key = dev.name if dev is not None else f"?{hardware.normalise(raw) or raw}"
        groups.setdefault(key, []).append(o)
        devices[key] = dev
    if len(groups) > 1:
        listed = ", ".join(f"{obs[0].value!r} (line {obs[0].line})" for obs in groups.values())
        warnings.append(
            RunWarning(
                f"the log names different GPUs: {listed}; using none of them: pass {flag('hw')} or {flag('peak_tflops')}",
                "hw_conflict",
            )
        )
        return None
    ((key, obs),) = groups.items()
    first = obs[0]
    dev = devices[key]
    if dev is None:
        warnings.append(
            RunWarning(
                f"the log names GPU {first.value!r} (line {first.line}), which logparse has no peak for: "
                f"pass {flag('hw')} or {flag('peak_tflops')}",
                "hw_no_peak",
                line=first.line,
            )
        )
        return None
    more = f"; {len(obs) - 1} more lines name it" if len(obs) > 1 else ""
    at = "at" if first.source == "log" else "in"  # at line 12 (devices.nvidia_smi), in wandb-metadata: gpu
    return Fact(dev.name, first.source, f"{first.value!r} {at} {first.where}{more}")


def listed_gpus(observations: Observations) -> Fact | None:
    """The number of GPUs of the first device listing (nvidia-smi table or `nvidia-smi -L`): rows
    numbered 0, 1, 2, ... in one pattern, close together. One node's GPUs, not the job's."""
    rows = sorted(observations.get("listed_gpu_index", ()), key=lambda o: o.line)
    start = next((i for i, o in enumerate(rows) if o.value == 0), None)
    if start is None:
        return None
    first = prev = rows[start]
    count = 1
    for o in rows[start + 1 :]:
        if o.value != prev.value + 1 or o.pattern != prev.pattern or o.line - prev.line > _MAX_ROW_GAP:
            break
        count, prev = count + 1, o
    what = "nvidia-smi -L listing" if first.pattern.endswith("nvidia_smi_list") else "nvidia-smi table"
    gpus = "GPU" if count == 1 else "GPUs"
    return Fact(count, "log", f"{count} {gpus} in the {what} at line {first.line} (one node)")


def accelerator_clue(observations: Observations) -> str:
    """What the log says about its device when it names none (Lightning, DeepSpeed), for a warning."""
    said = [o for o in observations.get("accelerator", ()) if str(o.value).lower() != "cpu"]
    if not said:
        return ""
    o = said[0]
    return f" (the log says it ran on {o.value} at line {o.line}, but not on which GPU)"


def communicator_ranks(observations: Observations) -> Fact | None:
    """The job's ranks as NCCL's INFO lines show them: the largest communicator's size (the world's; the others,
    a tensor- or data-parallel group's, are parts of it), else the number of processes that print those lines
    when there are two or more (every rank prints them under NCCL_DEBUG=INFO; a log that kept some ranks'
    output counts fewer)."""
    sizes = [o for o in observations.get("nccl_ranks", ()) if isinstance(o.value, int) and o.value > 0]
    if sizes:
        largest = max(sizes, key=lambda o: (o.value, -o.line))
        return Fact(int(largest.value), "log", f"the largest NCCL communicator, line {largest.line}")
    processes = sorted(observations.get("nccl_process", ()), key=lambda o: o.line)
    distinct = list(dict.fromkeys(str(o.value) for o in processes))
    if len(distinct) < 2:
        return None
    return Fact(
        len(distinct),
        "log",
        f"the processes printing NCCL INFO lines ({', '.join(distinct[:3])}{', ...' if len(distinct) > 3 else ''}), "
        f"first at line {processes[0].line}",
    )
