"""A record's own clock printed as seconds since 1970 (time.time()) is the row's timestamp, as a logger prefix's
stamp is: decided by the key's name and by the value (1e9..2e9 seconds, or as many thousands of milliseconds, rising
with the steps); a step's duration under the same `time` key stays the step time. Logs built from the loops' own
format strings with values chosen in the test."""

from __future__ import annotations

import json

from tests.frames import frame, row_at, steps_of


def test_a_json_metrics_line_with_a_unix_timestamp(write_log):
    # Jayluci4/mamba-integer src/monitor.py DyadicMonitor.log_step appends json.dumps({"step": step, "loss": loss,
    # "timestamp": time.time(), "dyadic/mean_decay": ..., ...}) to metrics.jsonl
    stamps = [1766310282.25, 1766310299.75, 1766310317.0, 1766310334.5]
    lines = [
        json.dumps(
            {"step": 10 * i, "loss": 8.5 - i / 4, "timestamp": t, "dyadic/mean_decay": 0.9194 + i / 1e4}
        )
        for i, t in enumerate(stamps)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert steps_of(parsed) == [0, 10, 20, 30]
    rows = parsed.rows
    assert "x_timestamp" not in rows.columns
    assert list(rows["timestamp"]) == stamps
    assert row_at(parsed, 2)["loss"] == 8.25


def test_an_integer_time_in_seconds_or_milliseconds_after_a_key(write_log):
    # f"step={step} loss={loss:.4f} time={int(time.time())}", and a logger that stamps Date.now() (milliseconds)
    seconds = [f"step={s} loss={2 - s / 100:.4f} time={1712345678 + 3 * s}" for s in (1, 2, 3, 4)]
    parsed = frame(write_log("\n".join(seconds) + "\n"))
    assert row_at(parsed, 4)["timestamp"] - row_at(parsed, 1)["timestamp"] == 9.0
    assert "x_time" not in parsed.rows.columns and "step_time_s" not in parsed.rows.columns
    millis = [
        f'{{"step": {s}, "loss": {2 - s / 100:.4f}, "ts": {1712345678000 + 1500 * s}}}' for s in (1, 2, 3)
    ]
    parsed = frame(write_log("\n".join(millis) + "\n", name="ms.log"))
    assert row_at(parsed, 3)["timestamp"] - row_at(parsed, 1)["timestamp"] == 3.0


def test_a_duration_under_the_time_key_stays_the_step_time(write_log):
    # the same loops' per-step duration: f"step={step} loss={loss:.4f} time={dt:.3f}" (seconds, far below 1e9)
    lines = [f"step={s} loss={2 - s / 100:.4f} time={0.5 + s / 100:.3f}" for s in (1, 2, 3, 4)]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    assert row_at(parsed, 2)["step_time_s"] == 0.52
    assert "timestamp" not in parsed.rows.columns or parsed.rows["timestamp"].isna().all()


def test_a_month_and_day_joined_by_a_dash_without_a_year_stamp_the_steps(write_log):
    # tuxchow/ecm (MojiTalk) train logs: TAB-separated losses, then the time as logging's datefmt '%m-%d %H:%M:%S'
    clock = ["06:52:00", "06:52:15", "06:52:29", "06:52:44"]
    lines = [
        f"epoch:1 step:{50 * k}\t{107.7 - 10 * k:.3f}\t{8.8 + k:.3f}\t{103.9 - 5 * k:.3f}\t\t07-04 {c}"
        for k, c in enumerate(clock, 1)
    ]
    parsed = frame(write_log("\n".join(lines) + "\n"))
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert rows["step"].tolist() == [50, 100, 150, 200]
    # 06:52:15 - 06:52:00, 06:52:29 - 06:52:15, 06:52:44 - 06:52:29
    assert rows["timestamp"].diff().iloc[1:].tolist() == [15.0, 14.0, 15.0]


def test_a_date_and_time_whose_fields_are_joined_by_underscores_stamp_the_steps(write_log):
    # jayleicn/moment_detr moment_detr/train.py: train_log_txt_formatter "{time_str} [Epoch] {epoch:03d} [Loss]
    # {loss_str}\n" with time_str = time.strftime("%Y_%m_%d_%H_%M_%S"), kept by the video-grounding repositories
    # built on it (CG-DETR's log of a user's run)
    clock = ["23_38_35", "23_38_53", "23_39_00", "23_39_07"]
    lines = [
        f"2026_05_26_{c} [Epoch] {k:03d} [Loss] loss_span {1.5 - k / 10:.4f} loss_giou 0.9371 loss_overall "
        f"{43 - k:.4f}"
        for k, c in enumerate(clock, 1)
    ]
    lines.append("saved to results/run_2026_05_26_23_39_07/model_best.ckpt")  # (in a name: no stamp)
    parsed = frame(write_log("\n".join(lines) + "\n"))
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert rows["step"].tolist() == [1, 2, 3, 4]
    # 23:38:53 - 23:38:35, 23:39:00 - 23:38:53, 23:39:07 - 23:39:00
    assert rows["timestamp"].diff().iloc[1:].tolist() == [18.0, 7.0, 7.0]
