"""fairseq's older console forms, read from real lines (patterns/fairseq.toml's header cites the format strings):

- fairseq-py before v0.4 (2017-18): the simple bar prints no update count, "| epoch 005  1000 / 8223 loss=2.17
  (3.20), wps=959, ...", then an epoch summary ("| epoch 005 | train loss 2.92 | ...") and "valid loss" with a space;
- v0.4-0.6.1 with --log-format json: the counts as bare numbers ("num_updates": 21497), the epoch summary without
  the "train_" prefix, the valid record with the loss as a bare float.
"""

from __future__ import annotations

import pytest

from logparse import api

# facebookresearch/fairseq#301 ("Train on gpu - about 1 day to 7 epochs", fairseq-py 2017): lines as posted
FAIRSEQ_2017 = """\
| epoch 005  1000 / 8223 loss=2.17 (3.20), wps=959, wpb=897, bsz=32, lr=0.001, clip=100%, gnorm=2.7374
| epoch 005  2000 / 8223 loss=2.20 (3.14), wps=960, wpb=900, bsz=32, lr=0.001, clip=100%, gnorm=2.7204
| epoch 005  3000 / 8223 loss=3.52 (3.08), wps=960, wpb=899, bsz=32, lr=0.001, clip=100%, gnorm=2.6783
| epoch 005  4000 / 8223 loss=2.20 (3.06), wps=961, wpb=903, bsz=32, lr=0.001, clip=100%, gnorm=2.6938
| epoch 005  5000 / 8223 loss=3.03 (3.03), wps=960, wpb=901, bsz=32, lr=0.001, clip=100%, gnorm=2.6796
| epoch 005  6000 / 8223 loss=2.91 (2.99), wps=960, wpb=902, bsz=32, lr=0.001, clip=100%, gnorm=2.6866
| epoch 005  7000 / 8223 loss=3.03 (2.96), wps=960, wpb=902, bsz=32, lr=0.001, clip=100%, gnorm=2.6826
| epoch 005  8000 / 8223 loss=1.47 (2.93), wps=961, wpb=904, bsz=32, lr=0.001, clip=100%, gnorm=2.6741
| epoch 005 | train loss 2.92 | train ppl 7.59 | s/checkpoint    7748 | words/s    961 | words/batch    906 | bsz    32 | lr 0.001000 | clip 100% | gnorm 2.6727
| epoch 005 | valid on 'valid' subset  1000 / 1311 loss=2.72
| epoch 005 | valid on 'valid' subset | valid loss 3.13 | valid ppl 8.78
| epoch 006  1000 / 8223 loss=1.97 (2.58), wps=966, wpb=923, bsz=32, lr=0.001, clip=100%, gnorm=2.5053
"""

# facebookresearch/fairseq#233 ("Reproducing WMT 14 En-Fr (Transformer)", v0.5 --log-format json): lines as posted
FAIRSEQ_JSON_V05 = """\
{"epoch": 9, "valid_loss": 3.170829971076651, "valid_nll_loss": 1.3833437350205129, "valid_ppl": "2.61"}
{"epoch": 10, "loss": "3.180", "nll_loss": "1.417", "ppl": "2.67", "wps": 1671182, "ups": "2.7", "wpb": 617154, "bsz": 16625, "num_updates": 21497, "lr": 0.00030195283218121974, "gnorm": "0.291", "clip": "100%", "oom": 0.02712006326464158, "loss_scale": "8.000", "wall": 8285}
{"epoch": 10, "valid_loss": 3.1633157649901, "valid_nll_loss": 1.3739047163839204, "valid_ppl": "2.59"}
{"epoch": 11, "loss": "3.169", "nll_loss": "1.405", "ppl": "2.65", "wps": 1622867, "ups": "2.6", "wpb": 617154, "bsz": 16625, "num_updates": 23647, "lr": 0.00028789890295524164, "gnorm": "0.276", "clip": "100%", "oom": 0.026768723305281853, "loss_scale": "8.000", "wall": 9125}
{"epoch": 11, "valid_loss": 3.1583966085524873, "valid_nll_loss": 1.368621294188633, "valid_ppl": "2.58"}
{"epoch": 12, "loss": "3.160", "nll_loss": "1.395", "ppl": "2.63", "wps": 1704381, "ups": "2.8", "wpb": 617156, "bsz": 16626, "num_updates": 25797, "lr": 0.0002756407569266462, "gnorm": "0.264", "clip": "100%", "oom": 0.026863588789394117, "loss_scale": "4.000", "wall": 9927}
"""


@pytest.fixture
def log(tmp_path):
    def write(name: str, text: str) -> str:
        path = tmp_path / name
        path.write_text(text)
        return str(path)

    return write


def test_the_2017_simple_bar_is_read_as_fairseq_steps(log):
    path = log("fairseq_2017.log", FAIRSEQ_2017)
    run = api.resolve(path)
    assert run.parsed.format == "fairseq"
    steps = run.steps
    # position p of epoch e (from 1) of 8223 batches: (e - 1) x 8223 + p + 1 batches done, one batch an update
    assert list(steps["step"]) == [4 * 8223 + p + 1 for p in range(1000, 9000, 1000)] + [5 * 8223 + 1001]
    # the batch's loss, as printed
    assert list(steps["loss"]) == [2.17, 2.20, 3.52, 2.20, 3.03, 2.91, 3.03, 1.47, 1.97]
    assert list(steps["x_loss_avg"]) == [3.20, 3.14, 3.08, 3.06, 3.03, 2.99, 2.96, 2.93, 2.58]
    assert list(steps["tokens_per_s"]) == [959, 960, 960, 961, 960, 960, 960, 961, 966]  # wps
    assert steps["tokens_per_step"].iloc[0] == 897  # wpb, words per update
    assert steps["grad_norm"].iloc[-1] == 2.5053
    # the validation bar and the epoch summary are not steps; the valid line is an evaluation with its loss
    events = run.parsed.events
    assert list(events.loc[events["event"] == "eval", "eval_loss"]) == [3.13]
    assert run.parsed.lines["matched"] == 11  # all but the validation bar's redraw


def test_the_v05_json_epoch_summaries_are_read_as_rows(log):
    path = log("fairseq_json_v05.log", FAIRSEQ_JSON_V05)
    a = api.analyze(path)
    assert a.summary["format"] == "fairseq_epochs"
    steps = a.steps
    assert list(steps["step"]) == [21497, 23647, 25797]  # num_updates, a bare number before v0.6.2
    assert list(steps["loss"]) == [3.180, 3.169, 3.160]
    assert list(steps["tokens_per_s"]) == [1671182, 1622867, 1704381]
    evals = a.run.parsed.events
    assert list(evals.loc[evals["event"] == "eval", "eval_loss"]) == [
        3.170829971076651,
        3.1633157649901,
        3.1583966085524873,
    ]


def test_a_v061_json_train_inner_record_is_a_step(log):
    # built from v0.6.1 progress_bar.py json_progress_bar (update unrounded, the counts bare numbers) with the
    # values of facebookresearch/fairseq#940's first record; then the same record as v0.9 prints it (strings)
    bare = (
        '{"epoch": 1, "update": 0.23532522474881015, "loss": "11.521", "nll_loss": "10.881", "ppl": "1886.05", '
        '"wps": 52922, "ups": "0.5", "wpb": 104928, "bsz": 5325, "num_updates": 445, "lr": 8.90889e-05, '
        '"gnorm": "1.543", "clip": "0%", "oom": 0, "loss_scale": "2.000", "wall": 882, "train_wall": 756}\n'
    )
    quoted = bare.replace('"num_updates": 445', '"num_updates": "495"')
    quoted = quoted.replace('"wps": 52922', '"wps": "53351"')
    rows = api.parse(log("fairseq_json_v061.log", bare + quoted))
    assert list(rows["step"]) == [445, 495]
    assert list(rows["tokens_per_s"]) == [52922, 53351]
