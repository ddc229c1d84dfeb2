"""An analysis: everything the pipeline found about one run, which the report stage reads and never changes."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core.schema import INTEGER_COLUMNS, INTERNAL_COLUMNS, STEP_ORDER
from ..core.summary_types import ReportedPart, Summary
from ..phases.goodput import Ledger
from ..phases.phases import Phases
from ..phases.window import Window
from ..steps.run import Run
from ..utilization.mfu import Utilization


@dataclass(repr=False)
class Findings:
    """One run, analyzed: `summary` (summary.json as a dict), `steps` (one row per optimizer step); `run`,
    `phases`, `util` and `reported` are the stages' own results. The API's Analysis (api.py) adds
    `save` and `plot`, which need the report stage."""

    run: Run
    phases: Phases
    util: Utilization
    reported: ReportedPart  # the framework's own figures against logparse's (crosscheck.py)
    window: Window | None = None  # the peer-style window asked for, if any
    basis: int | None = None  # 0 or 1: how the log counts its first step, when it shows it
    ledger: Ledger | None = None  # where the wall time went (phases/goodput.py)
    summary: Summary = field(default_factory=dict)  # type: ignore[assignment]  # {} until build_summary

    _public: pd.DataFrame | None = field(default=None, init=False, compare=False)

    @property
    def steps(self) -> pd.DataFrame:
        """One row per optimizer step: `step` first, counts as integers, `timestamp` as UTC datetimes
        (see public_steps). The stages work on `run.steps`, its raw form."""
        if self._public is None:
            self._public = public_steps(self.run.steps)
        return self._public

    def __repr__(self) -> str:
        s = self.summary
        if not s:
            return f"<Analysis {self.run.name}: {self.run.counted()}>"
        st = s.get("stable") or {}
        hw = (s.get("hardware") or {}).get("name") or "unknown hardware"
        gpus = s.get("gpus")
        parts = [
            f"{s.get('format')} log",
            self.run.counted(),  # as the text summary counts them
            f"{gpus} x {hw}" if gpus is not None else f"{hw}, GPU count unknown",
        ]
        if st.get("mfu_mean") is not None:
            parts.append(f"stable MFU {st['mfu_mean']:.1%} (steps {st['start_step']}-{st['end_step']})")
        elif st.get("tokens_per_s") is not None:
            parts.append(f"stable {st['tokens_per_s']:,.0f} tokens/s")
        return f"<Analysis {s.get('run')}: {', '.join(parts)}>"


def public_steps(steps: pd.DataFrame) -> pd.DataFrame:
    """A step frame as a person reads it: `step` first and the canonical columns in their order, counts
    as integers (nullable Int64 where some rows lack them), timestamps as UTC datetimes, the pipeline's
    internal columns left out. The pipeline itself works on the raw frame (epoch-second floats)."""
    out = steps.drop(columns=[c for c in INTERNAL_COLUMNS if c in steps])
    for col in INTEGER_COLUMNS.intersection(out.columns):
        values = out[col]
        if pd.api.types.is_float_dtype(values):
            known = values.dropna().to_numpy()
            if np.isfinite(known).all() and (known == np.round(known)).all():
                out[col] = values.astype("Int64" if len(known) < len(values) else "int64")
    if "timestamp" in out and pd.api.types.is_numeric_dtype(out["timestamp"]):
        # epoch seconds as a float hold a printed stamp to about 0.2 us; logs print at most microseconds, so
        # the datetime is rounded to them ("12:06:52.987995" stays .987995, not .987994909)
        out["timestamp"] = pd.to_datetime(out["timestamp"], unit="s", utc=True).dt.round("us")
    first = [c for c in STEP_ORDER if c in out]
    return out[first + [c for c in out.columns if c not in first]]
