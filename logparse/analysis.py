"""An analysis: everything the pipeline found about one run, which the report stage reads and never changes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from .phases import Phases
from .resolve import Run
from .utilization import Utilization
from .window import Window


@dataclass
class Analysis:
    run: Run
    phases: Phases
    util: Utilization
    reported: dict[str, Any]  # the framework's own figures against logparse's (crosscheck.py)
    window: Window | None = None  # the peer-style window asked for, if any
    basis: int | None = None  # 0 or 1: how the log counts its first step, when it shows it
    summary: dict[str, Any] = field(default_factory=dict)

    @property
    def steps(self) -> pd.DataFrame:
        return self.run.steps
