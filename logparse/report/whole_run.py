"""The whole-run average: throughput (and MFU from it) over the entire run, from the framework's own
end-of-run figures or its progress bar's clock, for the logs whose steps carry no time of their own.

It is not the stable window's figure: warmup, evaluations, checkpoints and the start-up the framework counts
are all inside it, so it reads at or below the steady rate. The summary labels it as such
(summary["whole_run"], present only when the log gives one), and the text prints it where the stable
window has no throughput (an HF log with `train_runtime` and `train_samples_per_second` in its
final dict got no throughput at all).

Where each figure comes from:
- HF Trainer's final dict (patterns/hf_trainer.toml `final_dict`, transformers trainer.py speed_metrics):
  train_runtime = the session's wall time (final_runtime_s); train_samples_per_second = the PLANNED samples
  (max_steps x total batch, or examples x epochs) / runtime, the cluster's (final_samples_per_s);
  train_tokens_per_second = tokens per device / runtime (final_tokens_per_s_per_gpu). Other sets that read
  an end-of-run rate into the same columns (paddlenlp, colossalai, ...) are taken the same way.
- A progress bar (Lightning's tqdm or rich bar, patterns/lightning.toml): its elapsed clock at the last
  redraw of each epoch (progress_elapsed_s; the bar restarts each epoch), with the tokens of the steps it
  covers (tokens_per_step).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..core.errors import flag
from ..core.summary_types import WholeRunPart
from ..steps.run import Run
from ..utilization.mfu import Utilization
from .unknowns import tokens_needs

LABEL = "whole-run average, not the stable window's (start-up, warmup and evaluations may be in it)"


def _pos(v: Any) -> float | None:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if f > 0 and f == f else None


def _from_final_dict(run: Run) -> WholeRunPart | None:
    """The framework's end-of-run figures: runtime, samples/s (cluster), tokens/s per device."""
    seconds = _pos(run.value("final_runtime_s"))
    samples = _pos(run.value("final_samples_per_s"))
    per_gpu = _pos(run.value("final_tokens_per_s_per_gpu"))
    if samples is None and per_gpu is None:
        return None
    gpus, seq = _pos(run.value("gpus")), _pos(run.value("seq_len"))
    tokens = None
    if per_gpu is not None and gpus is not None:
        tokens = per_gpu * gpus
    elif samples is not None and seq is not None:  # a sample is one sequence of seq_len tokens (packed)
        tokens = samples * seq
    if per_gpu is None and tokens is not None and gpus is not None:
        per_gpu = tokens / gpus
    fact = run.facts.get("final_samples_per_s") or run.facts.get("final_tokens_per_s_per_gpu")
    where = fact.detail if fact is not None and fact.detail else "the log"
    how = (
        "train_tokens_per_second x GPUs"
        if per_gpu is not None and run.value("final_tokens_per_s_per_gpu") is not None
        else "samples/s x seq len"
    )
    return {
        "tokens_per_s": tokens,
        "tokens_per_s_per_gpu": per_gpu,
        "samples_per_s": samples,
        "seconds": seconds,
        "steps": None,
        "mfu": None,
        "source": f"the framework's end-of-run figures ({where})" + (f"; tokens/s = {how}" if tokens else ""),
        "label": LABEL,
    }


def _from_bar(run: Run) -> WholeRunPart | None:
    """A progress bar's elapsed clock: the sum over epochs of each epoch's last elapsed time."""
    steps = run.steps
    if "progress_elapsed_s" not in steps or steps["progress_elapsed_s"].notna().sum() < 2:
        return None
    epoch = steps["epoch_index"] if "epoch_index" in steps else pd.Series(0, index=steps.index)
    seconds = float(steps["progress_elapsed_s"].groupby(epoch).max().sum())
    span = steps["step_span"].fillna(1) if "step_span" in steps else pd.Series(1.0, index=steps.index)
    n_steps = float(span.sum())
    if not seconds or not n_steps:
        return None
    tps = steps["tokens_per_step"].dropna() if "tokens_per_step" in steps else pd.Series(dtype=float)
    per_step = float(tps.median()) if len(tps) else None
    if per_step is None:
        seq, batch = _pos(run.value("seq_len")), _pos(run.value("global_batch_size"))
        per_step = seq * batch if seq and batch else None
    tokens = per_step * n_steps / seconds if per_step else None
    gpus = _pos(run.value("gpus"))
    return {
        "tokens_per_s": tokens,
        "tokens_per_s_per_gpu": tokens / gpus if tokens is not None and gpus else None,
        "samples_per_s": None,
        "seconds": seconds,
        "steps": int(n_steps),
        "mfu": None,
        "source": "the progress bar's elapsed clock (each epoch's last redraw, printed to the second) over "
        f"{int(n_steps)} steps",
        "label": LABEL,
    }


def whole_run(run: Run, util: Utilization) -> WholeRunPart | None:
    """The whole-run average (None when the log gives neither end-of-run figures nor a bar's clock), with
    MFU = FLOPs/token x tokens/s per GPU / peak when all three are known."""
    part = _from_final_dict(run) or _from_bar(run)
    if part is None:
        return None
    part["mfu"] = util.figures(part["tokens_per_s_per_gpu"])[1]
    return part


def text_lines(s: Any) -> list[str]:
    """For a summary whose stable window has no throughput: `  whole run: 25,683 tokens/s (25,683/GPU),
    401.3 samples/s, over 0.4984 s, MFU 0.0% (whole-run average ...; from ...)`; nothing otherwise (the
    stable window's figure is the one to read)."""
    part = s.get("whole_run")
    st = s.get("stable") or {}
    if not part or st.get("tokens_per_s") is not None or st.get("tokens_per_s_per_gpu") is not None:
        return []
    bits = []
    if part["tokens_per_s"] is not None:
        per = part["tokens_per_s_per_gpu"]
        bits.append(
            f"{part['tokens_per_s']:,.0f} tokens/s" + (f" ({per:,.0f}/GPU)" if per is not None else "")
        )
    elif part["tokens_per_s_per_gpu"] is not None:
        bits.append(f"{part['tokens_per_s_per_gpu']:,.0f} tokens/s per GPU")
    else:  # the inputs that make samples or steps tokens, every one the run lacks
        needs = tokens_needs(s, samples_per_s=part["samples_per_s"] is not None)
        bits.append(
            "tokens/s unknown" + (f" (pass {' and '.join(flag(n) for n, _ in needs)})" if needs else "")
        )
    if part["samples_per_s"] is not None:
        bits.append(f"{part['samples_per_s']:,.4g} samples/s")
    if part["seconds"] is not None:
        bits.append(f"over {part['seconds']:,.4g} s")
    if part["mfu"] is not None:
        bits.append(f"MFU {part['mfu']:.1%}")
    return [f"  whole run: {', '.join(bits)} ({part['label']}; from {part['source']})"]
