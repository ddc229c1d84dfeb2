"""Compose: a framework's pattern set and the generic reading of the training script's own prints, on one log.

A training script run under a framework often prints its own loss beside the framework's lines: a
DeepSpeed loop printing ``step 1 loss 5.0384`` every step while the engine prints ``step=5, skipped=0,
...`` every ``steps_per_print`` and no loss ("DeepSpeed does not print loss", deepspeedai/DeepSpeed#1156);
an ``accelerate`` loop in the style of the ``no_trainer`` examples, whose set reads only the run's header,
logging ``epoch 0 step 10: loss ...``. The frame reads such logs with the detected sets first and the
generic set's step lines last (``guests``): a line reaches the generic reading only when no framework
pattern matched it. Its rows are kept only when they form a step sequence that runs beside the
framework's (``settle``):

- at least MIN_STEPS distinct step numbers, mostly increasing (a counter, not stray numbers), and
- printed among the framework's step lines (the two stretches of lines overlap), or the
  framework printed no step line at all (DeepSpeed prints none unless ``steps_per_print`` is set: its default
  is None since deepspeedai/DeepSpeed PR #6602, Oct 2024), and
- the framework's step lines carry step numbers (HF Trainer's dicts do not: they are numbered later, from the
  epoch or the bar, and the prints could join none of them);

otherwise they are dropped and their lines count as unmatched, as before. Kept prints become values of steps:

- the run's print of a step (rank 0's; the lowest rank's when rank 0 printed none; an unprefixed line's) joins
  the framework's row of that step, filling the columns the framework left empty (where the framework printed
  another value of the same column, its own stays and the print's is kept as ``<column>_script``), or is a row
  of its own for a step the framework does not print;
- a print's rank is its launcher prefix's (torchrun --tee's ``[default1]:``), else the rank it prints
  (accelerate's ``[RANK 1]``); another rank's print is kept apart as ``<column>_rank<N>`` on the same row,
  never averaged in;
- a second print of the same step that gives another value of a column it already has (unprefixed lines of
  several processes: which rank printed which is unknown) is kept apart as ``<column>_print<K>``, and said so.

A counter going back within one rank's prints starts another run of prints (a restart), so a step printed
again after a restart is a new step, not a second print; among unprefixed lines of several processes a lag of
up to two rounds of prints is ordinary (each process writes when it gets there).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..core.schema import Row
from .sets import PatternSet

MIN_STEPS = 3  # distinct step numbers the prints must carry to be a step sequence
INCREASING = 0.8  # share of the changes of one rank's counter that must go up
GUEST = "guest"  # the role of the generic set's copy read after the chosen sets
BOOKKEEPING = ("kind", "pattern", "line", "rank", "host", "step", "malformed", "nonfinite", "windowed")


def guests(sets: dict[str, PatternSet], chosen: Iterable[PatternSet]) -> list[PatternSet]:
    """The step lines of the fallback sets (the generic reading), as sets read after the chosen ones."""
    names = {ps.name for ps in chosen}
    out = []
    for ps in sets.values():
        if ps.role != "fallback" or ps.name in names:
            continue
        lines = [copy.copy(spec) for spec in ps.lines if spec.kind == "step" and spec.attach is None]
        for spec in lines:
            spec.guest = True
        if lines:
            guest = copy.copy(ps)
            guest.lines, guest.role = lines, GUEST
            out.append(guest)
    return out


@dataclass
class Outcome:
    """What became of the prints the generic reading found."""

    kept: bool
    prints: int  # lines read by the generic reading
    notes: dict[str, str] = field(default_factory=dict)  # pattern -> what its numbers are (ParsedLog.notes)


def settle(rows: pd.DataFrame, guest_names: set[str]) -> tuple[pd.DataFrame, Outcome | None]:
    """The frame's rows with the guest prints joined to the framework's steps, or dropped (see the module)."""
    if rows.empty or "pattern" not in rows:
        return rows, None
    patterns = rows["pattern"].astype(str)
    # each pattern name's set looked at once (a big log has a few patterns and a million rows)
    is_guest = patterns.isin([p for p in patterns.unique() if p.split(".", 1)[0] in guest_names])
    if not is_guest.any():
        return rows, None
    prints = _printed_rank(rows[is_guest].sort_values("line", kind="stable"))
    own = rows[~is_guest & (rows["kind"] == "step")]
    # the stretches of lines of the prints and of the framework overlap (one DeepSpeed line amid 150 prints)
    first, last = prints["line"].min(), prints["line"].max()
    beside = own.empty or (first <= own["line"].max() and own["line"].min() <= last)
    # the framework's steps carry no number (HF Trainer's dicts, numbered later from the epoch or the bar):
    # numbered prints among them would change how those are numbered, and join none of them
    numbered = own.empty or ("step" in own and own["step"].notna().any())
    rest = rows[~is_guest].reset_index(drop=True)
    # the columns only the prints filled (rows.frame() gave every row every column)
    theirs = rows.columns[rows[is_guest].notna().any().to_numpy()]
    rest = rest.drop(columns=[c for c in theirs if c not in BOOKKEEPING and rest[c].isna().all()])
    if not beside or not numbered or not _a_sequence(prints):
        return rest, Outcome(False, len(prints))
    return _join(rest, prints)


def _printed_rank(prints: pd.DataFrame) -> pd.DataFrame:
    """A print that names its rank (accelerate's get_logger puts "[RANK {process_index}] " before every
    message: accelerate/logging.py MultiProcessAdapter.process; the generic reading keeps it as x_rank) has
    that rank when no launcher prefix gave one."""
    if "x_rank" not in prints:
        return prints
    named = prints["x_rank"]
    use = prints["rank"].map(_rank_key).isna() & named.notna() & (named == named.round())
    prints = prints.drop(columns="x_rank")
    prints["rank"] = prints["rank"].astype(object)
    prints.loc[use, "rank"] = named[use].astype(int)
    return prints


def _rank_key(rank: Any) -> Any:
    return None if rank is None or (isinstance(rank, float) and math.isnan(rank)) else int(rank)


def _a_sequence(prints: pd.DataFrame) -> bool:
    """The prints carry a counter: enough distinct steps, going up in each rank's lines."""
    if "step" not in prints or prints["step"].nunique() < MIN_STEPS:
        return False
    ups = changes = 0
    for _, part in prints.groupby(prints["rank"].map(_rank_key).fillna(-1), sort=False):
        d = part["step"].diff().dropna()
        d = d[d != 0]
        ups += int((d > 0).sum())
        changes += len(d)
    return changes > 0 and ups >= INCREASING * changes


def _join(rows: pd.DataFrame, prints: pd.DataFrame) -> tuple[pd.DataFrame, Outcome]:
    ranks = sorted({r for r in map(_rank_key, prints["rank"]) if r is not None})
    main = 0 if 0 in ranks or not ranks else ranks[0]
    # the columns the prints fill (rows.frame() gave every row every column), and the bookkeeping
    prints = prints.loc[:, (prints.notna().any() | prints.columns.isin(BOOKKEEPING)).to_numpy()]
    values = [c for c in prints.columns if c not in BOOKKEEPING]
    # the step rows of the framework, by step number: where a print of that step joins
    own = rows.index[(rows["kind"] == "step") & rows["step"].notna()] if "step" in rows else rows.index[:0]
    own_line = dict(zip(own, rows.loc[own, "line"].astype(int)))
    by_step: dict[int, list[int]] = {}
    for i, step in zip(own, rows.loc[own, "step"].astype(int)):
        by_step.setdefault(step, []).append(i)
    new_rows: list[Row] = []
    target: dict[tuple[int, int], tuple[str, int]] = {}  # (run, step) -> ("own" | "new", index)
    copies: dict[tuple[int, int, Any], list[Row]] = {}  # (run, step, rank) -> its copies' values
    fills: dict[str, dict[int, Any]] = {}  # column -> framework row -> the print's value
    apart: set[str] = set()
    taken: set[int] = set()  # framework rows a print already joined
    doubled = 0
    for (run, rank), rec in _runs(prints.to_dict("records")):
        step, line = int(rec["step"]), int(rec["line"])
        key = (run, step)
        if key not in target:
            free = [i for i in by_step.get(step, ()) if i not in taken]
            if free:
                at = min(free, key=lambda i: abs(own_line[i] - line))
                target[key] = ("own", at)
                taken.add(at)
            else:
                row = {"kind": "step", "pattern": rec["pattern"], "line": line, "step": step}
                row["rank"] = rec.get("rank") if rank is not None else None
                row["host"] = rec.get("host")
                new_rows.append(row)
                target[key] = ("new", len(new_rows) - 1)
        got = {c: rec[c] for c in values if _known(rec[c])}
        # which copy of this step and rank the print belongs to: the first whose columns it agrees with
        mine = copies.setdefault((run, step, rank), [])
        k = next((j for j, c in enumerate(mine) if all(c.get(n, v) == v for n, v in got.items())), len(mine))
        if k == len(mine):
            mine.append({})
        mine[k].update(got)
        suffix = ("" if rank is None or rank == main else f"_rank{rank}") + (f"_print{k + 1}" if k else "")
        doubled += bool(k)
        if not suffix:
            got.update({f: rec[f] for f in ("malformed", "nonfinite") if f in rec and _known(rec[f])})
        where, index = target[key]
        for name, value in got.items():
            name += suffix
            if suffix:
                apart.add(name)
            if where == "new":
                new_rows[index].setdefault(name, value)
            else:
                fills.setdefault(name, {}).setdefault(index, value)
    for name, by_row in fills.items():  # into the framework's rows, where they have no value of their own
        if name not in rows:
            rows[name] = pd.Series([None] * len(rows), index=rows.index, dtype=object)
        at = pd.Index(list(by_row))
        mine = pd.Series(list(by_row.values()), index=at, dtype=object)
        theirs = rows.loc[at, name]
        empty = theirs.isna().to_numpy()
        # the framework printed the same column with another value: its own stays, the print's is kept apart
        other = ~empty & (theirs.astype(object) != mine).to_numpy()
        if not pd.api.types.is_object_dtype(rows[name]):
            rows[name] = rows[name].astype(object)
        rows.loc[at[empty], name] = mine[empty].to_numpy()
        if other.any():
            kept = f"{name}_script"
            rows[kept] = pd.Series([None] * len(rows), index=rows.index, dtype=object)
            rows.loc[at[other], kept] = mine[other].to_numpy()
            apart.add(kept)
    if new_rows:
        rows = pd.concat([rows, pd.DataFrame(new_rows)], ignore_index=True)
        rows = rows.sort_values("line", kind="stable").reset_index(drop=True)
    rows = rows.infer_objects()
    joined = sum(1 for where, _ in target.values() if where == "own")
    return rows, _outcome(prints, ranks, main, joined, len(new_rows), sorted(apart), doubled)


def _runs(prints: list[Row]) -> Iterable[tuple[tuple[int, Any], Row]]:
    """Each print with its run of prints (a counter going back in one rank's lines starts the next run) and
    its rank. Unprefixed lines may come from several processes that lag one another: there, only a fall of
    more than two rounds of prints (the most prints one step had so far) starts a run."""
    top: dict[Any, int] = {}  # rank -> the highest step of its current run
    run: dict[Any, int] = {}
    count: dict[tuple[Any, int, int], int] = {}  # (rank, run, step) -> prints so far
    rounds: dict[tuple[Any, int], int] = {}  # (rank, run) -> the most prints of one step
    for rec in prints:
        rank = _rank_key(rec["rank"])
        step = int(rec["step"])
        r = run.get(rank, 0)
        high = top.get(rank, step)
        lag = 2 * rounds.get((rank, r), 1) if rank is None else 0
        if step < high - lag:
            r, high = r + 1, step
        run[rank], top[rank] = r, max(high, step)
        n = count[(rank, r, step)] = count.get((rank, r, step), 0) + 1
        rounds[(rank, r)] = max(rounds.get((rank, r), 1), n)
        yield (r, rank), rec


def _known(value: Any) -> bool:
    if value is None:
        return False
    if isinstance(value, float):
        return not math.isnan(value)
    try:
        return not pd.isna(value)
    except (TypeError, ValueError):
        return True


def _outcome(
    prints: pd.DataFrame, ranks: list[int], main: int, joined: int, new: int, apart: list[str], doubled: int
) -> Outcome:
    lines = prints["line"]
    who = f"rank {main}'s" if ranks else "the"
    note = (
        f"the training script's own prints on lines {int(lines.min())}-{int(lines.max())} "
        f"({len(prints)} lines, pattern {prints['pattern'].iloc[0]}) were read by the generic reading "
        "beside the framework's lines: "
        f"{who} values joined {joined} of the framework's step rows (its own values win) and made {new} rows "
        "of their own for steps it does not print"
    )
    if apart:
        shown = ", ".join(apart[:6]) + (", ..." if len(apart) > 6 else "")
        note += f"; kept apart, not averaged in: other ranks' prints, values the framework printed ({shown})"
    if doubled:
        note += (
            f"; {doubled} of the script's own prints repeat a step already printed with another value, "
            "on lines "
            "without a rank prefix (several processes print, and which printed which is unknown): the first "
            "print is the step's, the others are kept as *_print<K> columns; print on rank 0 only, or run "
            "torchrun with --tee 3 to tell the ranks apart"
        )
    return Outcome(True, len(prints), {f"{prints['pattern'].iloc[0]} (beside the framework)": note})
