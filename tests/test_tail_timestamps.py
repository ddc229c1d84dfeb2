"""Real public lines with timestamps (tests/data/public/SOURCES_ms_swift_flagscale_mindspeed.toml)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

import logparse

PUBLIC = Path(__file__).resolve().parent / "data" / "public"


def test_a_printed_microsecond_timestamp_reads_back_exactly():
    """FlagScale prints '[2026-09-11 12:06:52.987995] iteration 3/ ...': the step frame's timestamp is that
    instant to the microsecond (it read .987994, float seconds cut, not rounded)."""
    steps = logparse.parse(PUBLIC / "flagscale_qwen3_ascend_iter3.log")
    assert steps["timestamp"].tolist() == [pd.Timestamp("2026-09-11 12:06:52.987995", tz="UTC")]
