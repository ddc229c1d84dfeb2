"""A stamp that cannot be when its line was written is left out of the wall time and the ledger, and said.

One line stamped 9999-12-31 made an hour's run last 2.5e11 s at 0% goodput. The rule (steps/stamps.py): a stamp
that jumps away from the stamps around it and comes back is out of line; so is one later than the moment it is
read, or before the year 2000. A run that pauses for weeks and goes on, or whose clock is set back once, keeps
every stamp.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

import numpy as np
import pytest

from logparse import api

from .conftest import SAMPLES

MEGATRON = SAMPLES / "megatron_llama2-7b_8xh100.log"
T0 = datetime(2024, 9, 3, 15, 52, 43, tzinfo=timezone.utc).timestamp()
NOW = datetime(2026, 12, 1, tzinfo=timezone.utc).timestamp()
YEAR = 365 * 86400.0


def _run(n: int = 100, every: float = 7.0) -> np.ndarray:
    return T0 + np.arange(n) * every


def _stray(stamps: np.ndarray) -> list[int]:
    from logparse.steps.stamps import stray_stamps

    return np.flatnonzero(stray_stamps(stamps, now=NOW)).tolist()


@pytest.mark.parametrize("at", [0, 1, 50, 98, 99])
def test_a_stamp_years_away_is_stray_wherever_it_is(at):
    stamps = _run()
    stamps[at] = datetime(9999, 12, 31, tzinfo=timezone.utc).timestamp()
    assert _stray(stamps) == [at]


def test_a_stamp_that_jumps_a_day_ahead_and_back_is_stray_three_in_a_row_too():
    stamps = _run()
    stamps[40] += 86400
    stamps[60:63] += YEAR
    assert _stray(stamps) == [40, 60, 61, 62]


def test_a_stamp_behind_its_neighbours_is_stray_seconds_of_jitter_are_not():
    stamps = _run()
    stamps[30] -= 600  # ten minutes behind the lines around it (85 step times)
    stamps[70] -= 20  # ranks' clocks, buffered output: within the tolerance
    assert _stray(stamps) == [30]


def test_a_run_that_pauses_for_weeks_or_whose_clock_goes_back_once_keeps_every_stamp():
    paused = _run()
    paused[40:] += 3 * 7 * 86400  # three weeks of pause, then the run goes on
    assert _stray(paused) == []
    back = _run()
    back[50:] -= 3600  # a clock set back an hour (a change of time zone)
    assert _stray(back) == []
    concatenated = np.r_[_run(50) + YEAR, _run(50)]  # two runs in one file, the later one first
    assert _stray(concatenated) == []


def test_a_stamp_of_1970_or_of_the_future_is_stray_at_either_end():
    stamps = _run()
    stamps[0] = 0.0  # a node whose clock was never set
    stamps[-1] = NOW + 2 * 86400
    assert _stray(stamps) == [0, 99]
    assert _stray(np.arange(100) * 7.0) == []  # (a set that reads seconds since the start: every one kept)


def _wall_time_of_the_sample() -> float:
    """The sample's wall time, from its text: the first iteration's stamp less its printed time, to Megatron's
    closing `[after training is done] datetime:` stamp."""
    text = MEGATRON.read_text()
    stamp, ms = re.search(
        r"\[([\d-]+ [\d:]+)\] iteration +1/.*?per iteration \(ms\): ([\d.]+)", text
    ).groups()
    end = re.search(r"after training is done\] datetime: ([\d-]+ [\d:]+)", text).group(1)

    def at(s: str) -> float:
        return datetime.fromisoformat(s).replace(tzinfo=timezone.utc).timestamp()

    return at(end) - (at(stamp) - float(ms) / 1000)


@pytest.mark.parametrize(
    "old, new, where",
    [
        ("[2024-09-03 16:20:04] iteration", "[9999-12-31 16:20:04] iteration", "step line"),
        ("done] datetime: 2024-09-03", "done] datetime: 9999-12-31", "event line"),
    ],
)
def test_a_line_stamped_9999_rules_neither_the_wall_time_nor_the_ledger(write_log, old, new, where):
    text = MEGATRON.read_text()
    assert text.count(old) == 1
    a = api.analyze(str(write_log(text.replace(old, new))), hw="h100")
    line = next(i for i, one in enumerate(text.splitlines(), 1) if old in one)
    goodput = a.summary["goodput"]
    assert goodput["wall_s"] == pytest.approx(_wall_time_of_the_sample(), abs=2)
    assert goodput["goodput"] > 0.9
    assert sum(v for v in goodput["badput"].values() if v) < 0.1 * goodput["wall_s"]
    stray = [w for w in a.run.warnings if w.code == "stray_stamp"]
    assert len(stray) == 1 and stray[0].line == line and "9999-12-31" in stray[0]
