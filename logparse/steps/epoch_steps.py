"""Optimizer-step numbers for step lines that print none (Hugging Face Trainer's log dicts).

What such a log carries, and how the Trainer makes it (transformers 5.24 src/transformers/trainer.py,
_inner_training_loop / _run_epoch; the same formula in 4.x):

- `epoch` = epoch index + (micro-batches done in this epoch) / (micro-batches per epoch, B)
  (trainer.py:1956 `self.state.epoch = epoch + (step + 1) / steps_in_epoch`). An epoch of B micro-batches
  makes ceil(B / GA) optimizer steps, the last one shorter when GA does not divide B (trainer.py:1870-1880),
  so the k-th step of an epoch sits at epoch k*GA/B (not k / steps-per-epoch) and its last at a whole number.
  Printed as round(epoch, 2) up to ~4.57 and as f"{v:.4g}" since (trainer_callback.py ProgressCallback/
  PrinterCallback).
- `num_input_tokens_seen` (include_num_input_tokens_seen=True): cumulative input tokens gathered over the
  processes, exact integers (trainer.py:2748, 4203-4204).
- a dict every `logging_steps` optimizer steps (global_step % logging_steps == 0), plus step 1 with
  `logging_first_step` (trainer_callback.py:570, DefaultFlowCallback.on_step_end).
- the header's "Num update steps per epoch" (5.x) or num examples / total batch (trainer.py:1618-1628), and
  the final dict's train_runtime x train_steps_per_second = max_steps (trainer.py:2010 speed_metrics with
  num_steps = state.max_steps; trainer_utils.py:531) with its `epoch`.

`number_from_epochs` turns these into step numbers and says which rule did it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.facts import Fact
from .bars import decimals


@dataclass
class Numbered:
    steps: pd.Series
    how: str
    note: str | None = None  # a warning to show (a guess the user should know about)


def _half_unit(values: np.ndarray) -> np.ndarray:
    """How far each printed epoch may be from the true one. round(e, 2) (transformers <= ~4.57) when no
    value has more than 2 decimals, else f"{e:.4g}" (4 significant digits)."""
    dec = np.array([decimals(v) for v in values])
    if (dec <= 2).all():
        return np.full(len(values), 0.005)
    mag = np.floor(np.log10(np.where(values > 0, values, 1.0)))
    return 0.5 * 10.0 ** (mag - 3)


def _candidates(e: float, h: float, spe: int, per_epoch: tuple[float, float]) -> list[int]:
    """Optimizer steps whose epoch can print as e (+-h), with `spe` steps per epoch and B/GA (full steps
    per epoch, fractional when the last step is short) within `per_epoch`."""
    lo_p, hi_p = per_epoch
    out: set[int] = set()
    for whole in {math.floor(e - h), math.floor(e + h)}:
        if whole < 0:
            continue
        f_lo, f_hi = e - h - whole, e + h - whole
        if f_hi < 0 or f_lo > 1:
            continue
        if f_hi >= 1 - 1e-12:  # the epoch's last (possibly short) step lands on the whole number
            out.add((whole + 1) * spe)
        if f_lo <= 1e-12:
            out.add(whole * spe)
        # a full step k of the epoch sits at k / (B/GA), for k < spe
        k_lo = max(1, math.ceil(max(f_lo, 0.0) * lo_p - 1e-9))
        k_hi = min(spe - 1, math.floor(min(f_hi, 1.0) * hi_p + 1e-9))
        out.update(whole * spe + k for k in range(k_lo, k_hi + 1))
    return sorted(s for s in out if s > 0)


def _narrow(
    epoch: np.ndarray, h: np.ndarray, spe: int, per_epoch: tuple[float, float]
) -> tuple[float, float]:
    """B/GA pinned down by the dicts that name one full step k of an epoch: k / (B/GA) prints as their
    epoch, so B/GA lies in [k / (f + h), k / (f - h)] for each of them."""
    lo, hi = per_epoch
    for e, hh in zip(epoch, h, strict=False):
        cands = _candidates(float(e), float(hh), spe, per_epoch)
        whole = math.floor(e)
        if len(cands) != 1 or not 0 < cands[0] - whole * spe < spe:
            continue
        k, f = cands[0] - whole * spe, e - whole
        lo, hi = max(lo, k / (f + hh)), min(hi, k / (f - hh) if f > hh else hi)
    return (lo, hi) if lo <= hi else per_epoch


def _cadence_sequence(
    cands: list[list[int]], est: np.ndarray, cadence: int | None = None
) -> tuple[list[int], int, bool] | None:
    """Steps for dicts printed every L optimizer steps without a gap (step 1 too with logging_first_step):
    the sequences a*L, (a+1)*L, ... (or 1, L, 2L, ...) whose every step is one its dict's epoch allows.
    The nearest to the epoch's estimate when several fit; None when none does (a gap, a restart)."""
    if len(cands) < 2:
        return None
    sets = [set(c) for c in cands]
    tries: set[tuple[int, int, bool]] = set()
    for c0 in cands[0]:
        for c1 in cands[1]:
            if c1 > c0:
                tries.add((c1 - c0, c0, False))  # (L, first step, first dict is step 1 of logging_first_step)
                if c0 == 1:
                    tries.add((c1, c1, True))
    fits = []
    for cad, start, first in tries:
        if start % cad:
            continue
        seq = ([1] if first else []) + [start + cad * i for i in range(len(cands) - int(first))]
        if all(s in ok for s, ok in zip(seq, sets, strict=False)):
            fits.append((float(np.abs(np.array(seq) - est).sum()), seq, cad, first))
    fits = [f for f in fits if f[2] == cadence] or fits  # the cadence the log states (or shows), if it fits
    if not fits:
        return None
    _, seq, cad, first = min(fits, key=lambda f: (f[0], f[2]))
    return seq, cad, first


def _pick(cands: list[int], est: float, grid) -> int:
    """One of several candidates: on the logging grid if one is, nearest the estimate."""
    on_grid = [c for c in cands if grid(c)] or cands
    return min(on_grid, key=lambda c: (abs(c - est), c))


def steps_per_epoch(facts: dict[str, Fact]) -> tuple[int | None, str, tuple[float, float] | None]:
    """Optimizer steps per epoch from the header, else from the final dict (max_steps at its epoch); with
    the range of B/GA (full steps per epoch) when that is all the log pins down (a run inside one epoch)."""
    if "steps_per_epoch" in facts:
        f = facts["steps_per_epoch"]
        return int(f.value), f"the header's steps per epoch ({f.detail})", None
    if "num_examples" in facts and "global_batch_size" in facts:
        spe = math.ceil(facts["num_examples"].value / facts["global_batch_size"].value)
        return spe, "num examples / total train batch size in the header", None
    need = ("final_runtime_s", "final_steps_per_s", "final_epoch")
    if not all(k in facts for k in need):
        return None, "", None
    r, s, ep = (float(facts[k].value) for k in need)
    # max_steps = runtime x steps/s, both rounded as printed: the whole count in the range, if only one
    dr, ds = 0.5 * 10.0 ** -decimals(r), 0.5 * 10.0 ** -decimals(s)
    totals = list(range(math.ceil((r - dr) * (s - ds)), math.floor((r + dr) * (s + ds)) + 1))
    whole = round(ep)
    if whole >= 1 and abs(ep - whole) < 1e-9:
        totals = [t for t in totals if t % whole == 0]
    if len(totals) != 1 or ep <= 0:
        return None, "", None
    total = totals[0]
    where = f"the final dict: train_runtime x train_steps_per_second = {total} steps at epoch {ep:g}"
    where += f" ({facts['final_runtime_s'].detail})"
    if whole >= 1 and abs(ep - whole) < 1e-9:
        return total // whole, where, None
    h = float(_half_unit(np.array([ep]))[0])
    if ep + h < 1:  # the run ended inside its first epoch: step k sits at k / (B/GA)
        per = (total / (ep + h), total / (ep - h))
        return math.ceil(per[1] - 1e-9), where, per
    # total ~ epoch x steps per epoch: only the counts near total / epoch can fit
    near = range(max(1, math.floor(total / (ep + h)) - 1), math.ceil((total + 1) / (ep - h)) + 2)
    fits = [n for n in near if total in _candidates(ep, h, n, (n - 1.0, float(n)))]
    return (fits[0], where, None) if len(fits) == 1 else (None, "", None)


def _first_step_cadence(
    epoch: np.ndarray, h: np.ndarray, tokens: np.ndarray | None, stated: int | None = None
) -> tuple[int, tuple[float, float], bool] | None:
    """(cadence L, range of B/GA, the full steps per epoch; whether step 1 is logged too) when the first dicts
    are steps 1, L, 2L, ... (logging_first_step, L >= 2) as the tokens seen (exact) or the first epoch's
    values show, or, with the cadence the log states (logging_steps), L, 2L, ... or 1, L, 2L, ...; None when
    they do not show it, or show several."""
    n = len(epoch)
    if n < 3:
        return None
    found: list[tuple[int, list[int], bool]] = []
    first = [i for i in range(n) if epoch[i] + h[i] < 1]
    if stated:
        found = [(stated, first, False)] + ([(stated, first, True)] if stated > 1 else [])
    elif tokens is not None and tokens[0] > 0:
        ratio = tokens / tokens[0]
        within = [i for i in range(n) if epoch[i] < 1 - h[i]]
        if len(within) >= 3 and all(abs(ratio[i] - round(ratio[i])) < 1e-9 for i in within):
            r = [int(round(ratio[i])) for i in within]
            if r[1] >= 2 and r == [1] + [r[1] * j for j in range(1, len(r))]:
                found = [(r[1], within, True)]
    if not found:
        if len(first) < 3 or epoch[0] <= h[0]:
            return None
        lo, hi = (epoch[1] - h[1]) / (epoch[0] + h[0]), (epoch[1] + h[1]) / (epoch[0] - h[0])
        found = [(cad, first, True) for cad in range(max(2, math.ceil(lo)), math.floor(hi) + 1)]
    fits = []
    for cad, rows, logged_first in found:
        if len(rows) < 2:
            continue
        # step s_i prints as epoch s_i / (B/GA): each first-epoch dict bounds B/GA
        if logged_first:
            steps = [1] + [cad * j for j in range(1, len(rows))]
        else:
            steps = [cad * (j + 1) for j in range(len(rows))]
        s = np.array(steps, dtype=float)
        e, hh = epoch[rows], h[rows]
        lo = float(np.max(s / (e + hh)))
        hi = float(np.min(np.where(e > hh, s / np.maximum(e - hh, 1e-300), np.inf)))
        if lo <= hi:
            fits.append((cad, (lo, hi), logged_first))
    return fits[0] if len(fits) == 1 else None


def _all_candidates(
    epoch: np.ndarray, h: np.ndarray, spe: int, per_epoch: tuple[float, float]
) -> list[list[int]]:
    """Each dict's candidate steps (its epoch x steps per epoch, rounded, when the epoch allows none)."""
    return [
        _candidates(float(e), float(hh), spe, per_epoch) or [max(1, int(round(e * spe)))]
        for e, hh in zip(epoch, h, strict=False)
    ]


def number_from_epochs(rows: pd.DataFrame, facts: dict[str, Fact]) -> Numbered | None:
    """Step numbers from the printed epoch (and tokens seen), or None when the log cannot say them."""
    if "epoch" not in rows or not rows["epoch"].notna().all() or rows.empty:
        return None
    epoch = rows["epoch"].to_numpy(dtype=float)
    h = _half_unit(epoch)
    tokens = None
    if "tokens_seen" in rows and rows["tokens_seen"].notna().all():
        tokens = rows["tokens_seen"].to_numpy(dtype=float)
    length = _epoch_length(facts, epoch, h, tokens)
    if length is None:
        return None
    spe, per_epoch, cadence, source = length
    out, source, ambiguous = _steps_of_dicts(epoch, h, spe, per_epoch, cadence, source)
    how = f"epoch x steps per epoch: {source}"
    note = None
    if ambiguous:
        note = (
            f"step numbers come from the printed epoch ({source}): {ambiguous} dict(s) print it with too few "
            "digits to name one step"
        )
    if any(b == a for a, b in zip(out, out[1:], strict=False)):
        note = (
            f"step numbers from the printed epoch ({source}) give two dicts in a row the same step: the "
            "epoch is printed too coarsely to tell them apart"
        )
    return Numbered(pd.Series(np.array(out, dtype=int), index=rows.index), how, note)


def _epoch_length(
    facts: dict[str, Fact], epoch: np.ndarray, h: np.ndarray, tokens: np.ndarray | None
) -> tuple[int, tuple[float, float], int | None, str] | None:
    """The steps per epoch, the range its exact value lies in, the log cadence and how they are known:
    stated (narrowed by logging_first_step's first dicts when they agree), else read off the first dicts;
    None when neither says."""
    spe, source, known = steps_per_epoch(facts)
    stated = facts.get("log_interval")
    every = int(stated.value) if stated is not None and int(stated.value) >= 1 else None
    first_step = _first_step_cadence(epoch, h, tokens, every)
    cadence = every
    said = f" (logging_steps, {stated.detail})" if stated is not None else ""
    if spe is not None:
        per_epoch = known or (spe - 1.0, float(spe))
        if first_step is not None:
            cadence, (lo, hi), logged_first = first_step
            both = (max(lo, per_epoch[0]), min(hi, per_epoch[1]))
            if both[0] <= both[1]:
                per_epoch = both
                also = "logging_first_step, " if logged_first else ""
                source += f"; {also}a dict every {cadence} steps{said}"
            else:  # the first dicts disagree with the stated steps per epoch: the statement wins
                cadence = every
        return spe, per_epoch, cadence, source
    if first_step is None:
        return None
    cadence, (lo, hi), logged_first = first_step
    spe = _spe_from_dicts(epoch, h, lo, hi, cadence, logged_first)
    per_epoch = (max(lo, spe - 1.0), min(hi, float(spe)))
    if every:
        source = f"a dict every {cadence} steps{said}{', and step 1' if logged_first else ''}"
    else:
        source = f"logging_first_step with a dict every {cadence} steps, read off the first dicts' " + (
            "tokens seen" if tokens is not None else "epoch"
        )
    return spe, per_epoch, cadence, source + f" ({spe} steps per epoch)"


def _spe_from_dicts(
    epoch: np.ndarray, h: np.ndarray, lo: float, hi: float, cadence: int, logged_first: bool
) -> int:
    """B/GA in [lo, hi]: the steps per epoch is ceil(B/GA); of the counts it may be, the one under which
    the dicts read as 1, L, 2L, ... (when a later epoch tells them apart), else the smallest."""
    options = list(range(max(1, math.ceil(lo - 1e-9)), math.ceil(hi - 1e-9) + 1))
    for n in options:
        allowed = _all_candidates(epoch, h, n, (max(lo, n - 1.0), min(hi, float(n))))
        seq = _cadence_sequence(allowed, epoch * n, cadence)
        if seq is not None and seq[1:] == (cadence, logged_first):
            return n
    return options[0]


def _steps_of_dicts(
    epoch: np.ndarray,
    h: np.ndarray,
    spe: int,
    per_epoch: tuple[float, float],
    cadence: int | None,
    source: str,
) -> tuple[list[int], str, int]:
    """Each dict's step from its epoch x steps per epoch; where the epoch is printed too coarsely to name
    one, the one cadence all dicts allow, else the log cadence. Returns the steps, the source (with how
    the coarse ones were read) and how many dicts were ambiguous."""
    per_epoch = _narrow(epoch, h, spe, per_epoch)
    est = epoch * spe
    cands = _all_candidates(epoch, h, spe, per_epoch)
    ambiguous = sum(len(c) > 1 for c in cands)
    sequence = _cadence_sequence(cands, est, cadence) if ambiguous else None
    if sequence is not None:
        # every dict in a row, a dict every L steps (and step 1 with logging_first_step): the one such
        # sequence the printed epochs allow
        out, cadence, first = sequence
        first_note = "step 1 and " if first else ""
        source += (
            f", the epoch printed too coarsely to name each step: the dicts read as {first_note}every "
            f"{cadence} steps, the one cadence all of them allow"
        )
        return out, source, ambiguous
    if ambiguous and cadence is None:
        # the epoch is printed too coarsely for some dicts: put those on the cadence of the others
        diffs = np.diff([c[0] for c in cands if len(c) == 1])
        cadence = max(1, int(round(float(np.median(diffs))))) if len(diffs) else 1
        source += f", snapped to the log cadence of {cadence} steps where the epoch is too coarse"
    grid = (lambda s: s == 1 or s % cadence == 0) if cadence else (lambda s: True)
    out = [_pick(c, float(x), grid) for c, x in zip(cands, est, strict=False)]
    return out, source, ambiguous
