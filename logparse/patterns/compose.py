"""Compose: a framework's pattern set and the generic reading of the training script's own prints, on one log.

A training script run under a framework often prints its own loss beside the framework's lines: a
DeepSpeed loop printing ``step 1 loss 5.0384`` every step while the engine prints ``step=5, skipped=0,
...`` every ``steps_per_print`` and no loss ("DeepSpeed does not print loss", deepspeedai/DeepSpeed#1156);
an ``accelerate`` loop in the style of the ``no_trainer`` examples, whose set reads only the run's header,
logging ``epoch 0 step 10: loss ...``. The frame reads such logs with the detected sets first and the
generic set's step lines last (``guests``), then the inferred reading (infer.py) of the lines the sets leave in
the log's head, its lines that print a training value (``inferred_guest``: a record no regex of the generic set
reads, ``loss:0.93, global_step:160`` with its counter last, is learnt from its repeats like any log's): a line
reaches them only when no framework pattern matched it. A framework's bar line (a tqdm frame its set reads) is
read by them too, outside its frames (``outside_bars``): the bar's description (``Epoch 1, Step 0, Loss: 0.97:
1%|...``) and a print glued after the last frame (the redraws lost their carriage returns) are text like any
other; a print found there is the line's row, the bar's values beside its own (not the bar's position: the
print numbers its step). Their rows are kept only when they form a step sequence that runs beside the
framework's (``settle``):

- at least MIN_STEPS distinct step numbers, mostly increasing (a counter, not stray numbers), and
- printed among the framework's step lines (the two stretches of lines overlap), or the
  framework printed no step line at all (DeepSpeed prints none unless ``steps_per_print`` is set: its default
  is None since deepspeedai/DeepSpeed PR #6602, Oct 2024), and
- the framework's step lines carry step numbers (HF Trainer's dicts do not: they are numbered later, from the
  epoch or the bar, and the prints could join none of them), or the prints say which step each of them is: a
  TrainerCallback's ``step=10 | loss=2.601831`` printed just before (or after) the dict ``{'loss': '2.602',
  ...}`` that prints the same values (``same_value``) numbers that dict;

otherwise they are dropped and their lines count as unmatched, as before (a bar line the prints were read from
is the framework's bar row again). Kept prints become values of steps:

- the run's print of a step (rank 0's; the lowest rank's when rank 0 printed none; an unprefixed line's) joins
  the framework's row of that step, filling the columns the framework left empty, or is a row of its own for a
  step the framework does not print. Where both print a column: one value printed twice (the shorter print
  rounds the longer, ``same_value``) keeps the print with more digits (HF Trainer's dict rounds to 4 significant
  digits, a script prints ``{loss:.6f}``); another value keeps the framework's, the print's kept as
  ``<column>_script``. Lines of two shapes that print one step (DeepSpeed's ``step=`` line and its timer line,
  the script's print) are rows the steps stage joins into the step's one row, each column from the first line
  that prints it (steps/merge.py merge_duplicates);
- a bar that the prints were read from counts their steps when its position is their step plus a constant: its
  rate (tqdm's seconds per item) is then their step time; a bar that counts something else (micro-batches, all
  epochs' items) gives their rows none of its columns;
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
import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..core.schema import Row
from .sets import LineSpec, PatternSet

MIN_STEPS = 3  # distinct step numbers the prints must carry to be a step sequence
INCREASING = 0.8  # share of the changes of one rank's counter that must go up
GUEST = "guest"  # the role of the generic set's copy read after the chosen sets
# a print read outside a framework's bar frames (frame/matcher.py): how the framework's set read the bar (bar_read)
BAR_READ = "bar_read"
# what a bar's set numbers its rows by (Lightning's bar: the micro-batch within the epoch): left out of the print's row
BAR_COUNTERS = frozenset({"step", "micro_step", "epoch_index"})
BOOKKEEPING = ("kind", "pattern", "line", "rank", "host", "step", "malformed", "nonfinite", "windowed")
BOOKKEEPING += (BAR_READ,)


# One frame of a tqdm bar as tqdm's format_meter draws it ("{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining},
# {rate_fmt}{postfix}]", tqdm/std.py): the text a set's bar line reads. What a line holds outside its frames is
# other text: the bar's description before a frame (set_description: "Epoch 1, Step 0, Loss: 0.97:  1%|..."), a
# print glued after the last frame where the redraws lost their carriage returns.
BAR_FRAME = re.compile(r"\s*\d{1,3}%\|[^|\n]*\|\s*\d+/\d+\s*\[[^\]\n]*\]")


def outside_bars(text: str) -> tuple[str, list[tuple[int, int]]]:
    """The last tqdm frame of a line with its description (the bar as the line left it), and where the line holds
    text outside its frames, to be read like any other text: that frame's description, then what follows the
    frame (spans of `text`, blank ones left out)."""
    cuts = [(m.start(), m.end()) for m in BAR_FRAME.finditer(text)]
    if not cuts:
        return "", []
    start = cuts[-2][1] if len(cuts) > 1 else 0
    spans = [(start, cuts[-1][0]), (cuts[-1][1], len(text))]
    return text[start : cuts[-1][1]], [(a, b) for a, b in spans if text[a:b].strip(" :")]


def inferred_guest(inferred: PatternSet) -> PatternSet | None:
    """The step lines of the inferred reading of the lines a framework's sets leave (frame/assemble.py), as a
    set read after the chosen ones, like the generic set's (`guests`). Only lines that print what only training
    prints (a loss, the lr, a gradient norm): beside a framework's steps, a rising number in a library's chatter
    (`NCCL INFO ... 601`) is no step of the script's."""
    lines = [
        copy.copy(spec)
        for spec in inferred.lines
        if spec.kind == "step" and spec.attach is None and spec.continues is None and _trains(spec)
    ]
    for spec in lines:
        spec.guest = True
    if not lines:
        return None
    guest = copy.copy(inferred)
    guest.lines, guest.role = lines, GUEST
    return guest


def _trains(spec: LineSpec) -> bool:
    columns = {fs.column for fs in spec.fields.values()}
    return bool(columns & {"loss", "lr", "grad_norm"}) or any("loss" in c for c in columns)


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
    timed_by: str | None = None  # the column their step times were taken from (a bar's rate on their line)


def settle(
    rows: pd.DataFrame, guest_names: set[str], redrawn: frozenset[str] = frozenset()
) -> tuple[pd.DataFrame, Outcome | None]:
    """The frame's rows with the guest prints joined to the framework's steps, or dropped (see the module).
    `redrawn`: the guest patterns of a tqdm bar whose postfix holds the values (its rows are redraws, which the
    steps stage reads in the order drawn: steps/bars.postfix_steps)."""
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
    # numbered prints among them would change how those are numbered, and join none of them, unless the
    # prints say which step each is (they print its values too: _numbered_by)
    numbered = own.empty or ("step" in own and own["step"].notna().any())
    if own.empty and redrawn and prints["pattern"].isin(redrawn).all() and _a_sequence(prints):
        return _redraws_kept(rows, prints)
    rest = rows[~is_guest].reset_index(drop=True).drop(columns=BAR_READ, errors="ignore")
    steps_from_prints = 0
    if not numbered and beside and _a_sequence(prints):
        steps = _numbered_by(rest, prints)
        if steps is not None:
            steps_from_prints = len(steps)
            rest = rest.copy()
            rest.loc[list(steps), "step"] = list(steps.values())
            numbered = True
    # the columns only the prints filled (rows.frame() gave every row every column)
    theirs = rows.columns[rows[is_guest].notna().any().to_numpy()]
    rest = rest.drop(columns=[c for c in theirs if c not in BOOKKEEPING and rest[c].isna().all()])
    if not beside or not numbered or not _a_sequence(prints):
        bars = _bars_again(prints)
        if bars:
            rest = _as_read(pd.concat([rest, pd.DataFrame(bars)], ignore_index=True), bars)
        return rest, Outcome(False, len(prints) - len(bars))
    prints, timed_by = _bar_times(prints)
    rows, outcome = _join(rest, prints)
    outcome.timed_by = timed_by
    said = []
    if steps_from_prints:
        said.append(
            f"{steps_from_prints} of the framework's step rows print no step number: each is the step of the "
            "print beside it that prints the same values"
        )
    if timed_by is not None:
        said.append("the bar they are printed on counts their steps: its rate is their step time")
    if said:
        for key in outcome.notes:
            outcome.notes[key] += "; " + "; ".join(said)
    return rows, outcome


def _redraws_kept(rows: pd.DataFrame, prints: pd.DataFrame) -> tuple[pd.DataFrame, Outcome]:
    """The rows as read, where the framework prints no step and the script's values are its own bar's postfix: each
    redraw a row (a bar redraws a step as its postfix and its position move apart, so redraws join no step here)."""
    lines = prints["line"]
    pattern = prints["pattern"].iloc[0]
    note = (
        f"the training script's own progress bar on lines {int(lines.min())}-{int(lines.max())} ({len(prints)} "
        f"redraws, pattern {pattern}) was read by the generic reading beside the framework's lines, which print "
        "no step: its postfix holds the script's values"
    )
    kept = rows.drop(columns=BAR_READ, errors="ignore").sort_values("line", kind="stable")
    return kept.reset_index(drop=True), Outcome(
        True, len(prints), {f"{pattern} (beside the framework)": note}
    )


BAR_RATE = "progress_s_per_it"


def bar_read(kind: str, pattern: str, values: Row) -> str:
    """The framework's reading of a bar line whose print the generic reading took (its kind, pattern and values),
    kept with the print's row: the bar's row again if the prints are no step sequence (_bars_again)."""
    return json.dumps({"kind": kind, "pattern": pattern, "values": values}, default=str)


def _as_read(rows: pd.DataFrame, bars: list[Row]) -> pd.DataFrame:
    """The rows in file order, their columns in the order they first hold a value (as the frame orders them when
    it reads the lines: frame/columns.py), each bar row's own columns in its set's order."""
    rows = rows.sort_values("line", kind="stable").reset_index(drop=True)
    own = {int(b["line"]): {k: i for i, k in enumerate(b)} for b in bars}
    first = np.where(rows.notna().any().to_numpy(), rows.notna().to_numpy().argmax(axis=0), len(rows))
    lines = rows["line"].to_numpy()
    keys = []
    for j, column in enumerate(rows.columns):
        at = int(first[j])
        within = own.get(int(lines[at]), {}) if at < len(rows) else {}
        keys.append((at, within.get(column, j), j))
    return rows[[rows.columns[j] for _, _, j in sorted(keys)]]


def _bars_again(prints: pd.DataFrame) -> list[Row]:
    """The framework's bar rows of the prints read outside a bar's frames, as the bar's set read them (its kind,
    pattern and columns): prints
    that are no step sequence leave their lines to the framework."""
    if BAR_READ not in prints:
        return []
    out = []
    for rec in prints[prints[BAR_READ].notna()].to_dict("records"):
        read = json.loads(rec[BAR_READ])
        row = {"kind": read["kind"], "pattern": read["pattern"], "line": rec["line"], "rank": rec["rank"]}
        row["host"] = rec["host"]
        row.update(read["values"])
        if _known(rec.get("windowed")):
            row["windowed"] = ",".join(c for c in str(rec["windowed"]).split(",") if c in row) or None
        out.append(row)
    return out


def _bar_times(prints: pd.DataFrame) -> tuple[pd.DataFrame, str | None]:
    """The prints with what the bar they were printed on says (a bar's description, a print glued to its frames:
    Matcher._described), where the bar counts their steps: its position is their step plus a constant (the same
    step where one print shows it). Its rate (tqdm's smoothed seconds per item) is then seconds per step. A bar
    that counts something else (micro-batches, every epoch's items) says nothing of their steps: its columns are
    left out of their rows."""
    bars = [c for c in prints.columns if c.startswith("progress_")]
    if not bars or "progress_n" not in prints or prints["progress_n"].isna().all():
        return prints, None  # (no bar: a print's own `(100/33282)` is its steps' total)
    both = prints.dropna(subset=["progress_n", "step"])
    offsets = (both["progress_n"] - both["step"]).unique() if len(both) else []
    counts = len(offsets) == 1 and (len(both) > 1 or offsets[0] == 0)
    prints = prints.copy()
    if not counts:
        prints.loc[prints["progress_n"].notna(), bars] = None  # (the bar's columns, on the rows a bar gave)
        return prints.drop(columns=[c for c in bars if prints[c].isna().all()]), None
    if BAR_RATE not in prints or prints[BAR_RATE].isna().all():
        return prints, None
    if "step_time_s" in prints and prints["step_time_s"].notna().any():
        return prints, None
    prints["step_time_s"] = prints[BAR_RATE]
    return prints, BAR_RATE


MIN_DIGITS = 3  # digits a value must print for a longer print that rounds to it to be the same value


def _digits(value: Any) -> int:
    """The significant digits a number was printed with (as far as its float shows them: `2.602` 4)."""
    mantissa = f"{abs(float(value)):.15g}".split("e")[0].replace(".", "").lstrip("0")
    return len(mantissa)


def same_value(a: Any, b: Any) -> bool:
    """Two prints of one value: equal, or the longer rounds to the shorter's digits (HF Trainer's dict prints
    `'loss': '2.602'`, its values formatted `.4g`, where the script prints `loss=2.601831`), the shorter printing
    at least MIN_DIGITS of them."""
    try:
        a, b = float(a), float(b)
    except (TypeError, ValueError):
        return a == b
    if a == b:
        return True
    if not (math.isfinite(a) and math.isfinite(b)) or a == 0 or b == 0:
        return False
    digits = min(_digits(a), _digits(b))
    return digits >= MIN_DIGITS and float(f"{a:.{digits}g}") == float(f"{b:.{digits}g}")


def _numbered_by(rows: pd.DataFrame, prints: pd.DataFrame) -> dict[int, int] | None:
    """The step number of each of the framework's unnumbered step rows, from the script's prints around it: the
    print just before or just after the row that prints the same values (HF Trainer writes its dict of a step
    after the script's callback printed that step, or before). Only where the two share a column: a row all of
    whose shared values agree with one of its two neighbours, and at least one row that shares one; else None
    (the prints say nothing of which step a row is)."""
    own = rows[rows["kind"] == "step"]
    if "step" in own:
        own = own[own["step"].isna()]
    values = [c for c in prints.columns if c not in BOOKKEEPING and c in rows.columns]
    order = prints.sort_values("line", kind="stable")
    lines = order["line"].to_numpy()
    recs = order.to_dict("records")
    out: dict[int, int] = {}
    shared_any = False
    for i, row in own.iterrows():
        at = int(lines.searchsorted(row["line"]))
        near = [recs[k] for k in (at - 1, at) if 0 <= k < len(recs)]
        fits = []
        for rec in near:
            shared = [c for c in values if _known(rec.get(c)) and _known(row.get(c))]
            if shared:
                shared_any = True
                if all(same_value(rec[c], row[c]) for c in shared):
                    fits.append(rec)
            else:
                fits.append(None)
        chosen = next((rec for rec in fits if rec is not None), None)
        if chosen is None and len(fits) < len(near):
            return None  # its neighbours print the columns it prints, with other values
        if chosen is None and near:
            chosen = near[0]
        if chosen is not None:
            out[i] = int(chosen["step"])
    return out if shared_any and out else None


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
    own_line = dict(zip(own, rows.loc[own, "line"].astype(int), strict=False))
    by_step: dict[int, list[int]] = {}
    for i, step in zip(own, rows.loc[own, "step"].astype(int), strict=False):
        by_step.setdefault(step, []).append(i)
    new_rows: list[Row] = []
    target: dict[tuple[int, int], tuple[str, int]] = {}  # (run, step) -> ("own" | "new", index)
    copies: dict[tuple[int, int, Any], list[Row]] = {}  # (run, step, rank) -> its copies' values
    fills: dict[str, dict[int, Any]] = {}  # column -> framework row -> the print's value
    apart: set[str] = set()
    longer = 0  # the framework's values the prints gave with more digits
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
        # the framework printed the same column with another value: its own stays, the print's is kept apart;
        # unless it is the same value printed to fewer digits (same_value): then the print's digits are kept
        other = ~empty & (theirs.astype(object) != mine).to_numpy()
        finer = other & np.array(
            [same_value(a, b) and _digits_of(b) > _digits_of(a) for a, b in zip(theirs, mine, strict=True)],
            dtype=bool,
        )
        same = other & np.array([same_value(a, b) for a, b in zip(theirs, mine, strict=True)], dtype=bool)
        other &= ~same
        if not pd.api.types.is_object_dtype(rows[name]):
            rows[name] = rows[name].astype(object)
        rows.loc[at[empty | finer], name] = mine[empty | finer].to_numpy()
        longer += int(finer.sum())
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
    outcome = _outcome(prints, ranks, main, joined, len(new_rows), sorted(apart), doubled)
    if longer:
        for key in outcome.notes:
            outcome.notes[key] += (
                f"; {longer} values both printed are the prints' (the framework printed the same value to fewer "
                "digits)"
            )
    return rows, outcome


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


def _digits_of(value: Any) -> int:
    try:
        return _digits(value)
    except (TypeError, ValueError):
        return 0


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
