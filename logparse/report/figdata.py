"""What report.png draws, as numbers: the steps' curves and flags in step order, the marks of the event lane, and
the summary. Plain values and numpy arrays only, so the process that draws a report never imports pandas: the
command forks it before pandas is imported, and it imports matplotlib while the log is read
(pandas and matplotlib imported side by side, not one after the other). `gather.report_data` makes one from a
run's `Findings`."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..core.summary_types import Summary

# the step columns a panel draws (plots._panels): MFU, tokens/s per GPU or for the cluster, step time, loss,
# and the framework's own MFU where logparse has none
DRAWN = (
    "mfu", "tokens_per_s_per_gpu", "tokens_per_s", "step_time_s", "loss", "reported_mfu",
    "samples_per_s_per_gpu", "samples_per_s",
)  # fmt: skip


@dataclass
class ReportData:
    """One run's report, ready to draw. Every array is in step order (a resumed attempt's rows ran last)."""

    summary: Summary
    x: np.ndarray  # each row's optimizer step
    # a DRAWN column that has a value in some row -> its values (NaN where none)
    series: dict[str, np.ndarray]
    # rows whose value was NaN, infinite or unreadable in the log: their gap in a curve is news
    gaps: np.ndarray
    # rows whose MFU is above 100%: marked beyond the axis, they do not set its scale
    impossible: np.ndarray
    marks: dict[str, np.ndarray] = field(default_factory=dict)  # mark kind (styles.py) -> its steps, sorted
    runs: tuple[int, ...] = ()  # the runs of the log (segments' `run`) the rows belong to
    # the first and last step of each restart's warmup
    restarts: list[tuple[float, float]] = field(default_factory=list)
    warmup_end: float | None = None  # the last step of the first attempt's warmup (its rows' `phase`)

    def column(self, name: str) -> np.ndarray | None:
        """A drawn column's values in step order; None when no row has one."""
        return self.series.get(name)
