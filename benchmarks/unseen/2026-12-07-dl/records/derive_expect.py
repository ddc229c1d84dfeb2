"""Rebuild every printed 'epoch E - iter I/N' record of a run from its record.jsonl (flair_capture.py), and
compare with the log. Mirrors flair/trainers/trainer.py:718-738:
  loss        = epoch_train_loss / epoch_train_samples   (sums of forward_loss loss.item() and count over the epoch so far)
  samples/sec = epoch_train_samples / (current_time - epoch_start_time)   (the two time.time() values the trainer took)
  lr          = the learning_rate MetricRecord _get_current_lr_and_momentum records right before the line is printed
python derive_expect.py RUN_DIR LOG  -> prints JSON rows and a check against the printed values."""
import json, re, sys

run, logf = sys.argv[1], sys.argv[2]
rows, epoch, start, s_loss, s_cnt, pending = [], None, None, 0.0, 0, None
for line in open(f"{run}/record.jsonl"):
    r = json.loads(line)
    k = r["kind"]
    if k == "hook" and r["event"] == "before_training_epoch":
        epoch, start, s_loss, s_cnt = r["epoch"], None, 0.0, 0
    elif k == "forward_loss" and epoch is not None:
        s_loss += r["loss"]; s_cnt += r["count"]
    elif k == "time" and epoch is not None:
        if start is None:
            start = r["value"]
        else:
            pending = {"epoch": epoch, "loss": s_loss / s_cnt, "elapsed": r["value"] - start,
                       "samples_per_s": s_cnt / (r["value"] - start), "samples": s_cnt}
    elif k == "metric" and r["name"] == ["learning_rate"] and pending is not None and "lr" not in pending:
        pending["lr"] = r["value"][0]; pending["global_step"] = r["global_step"]
    elif k == "hook" and r["event"] == "after_training_batch" and pending is not None:
        pending["iter"] = r["batch_no"] + 1; pending["n"] = r["total_number_of_batches"]
        rows.append(pending); pending = None

pat = re.compile(r"epoch (\d+) - iter (\d+)/(\d+) - loss ([\d.]+) - time \(sec\): ([\d.]+) - samples/sec: ([\d.]+) - lr: ([\d.]+)")
printed = [(i + 1, m) for i, l in enumerate(open(logf)) if (m := pat.search(l))]
assert len(printed) == len(rows), (len(printed), len(rows))
bad = 0
for (ln, m), r in zip(printed, rows):
    e, it, n, loss, el, sps, lr = m.groups()
    ok = (int(e), int(it), int(n)) == (r["epoch"], r["iter"], r["n"]) and loss == f"{r['loss']:.8f}" \
        and el == f"{r['elapsed']:.2f}" and sps == f"{r['samples_per_s']:.2f}" and lr == f"{r['lr']:.6f}"
    bad += not ok
    print(json.dumps({"line": ln, **r, "printed": m.group(0), "match": ok}))
print(f"{len(rows)} rows, {bad} mismatches", file=sys.stderr)
