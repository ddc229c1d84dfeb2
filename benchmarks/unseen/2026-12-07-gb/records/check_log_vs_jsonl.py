"""Checks every 'Train loss:'/'Eval loss:' line of each log against the JSONL record (np.round(v, 4), as printed)."""
import json, re, sys
import numpy as np

for mode in ["vae_eval", "betavae_noeval", "aae_adversarial_ckpt"]:
    recs = [json.loads(l) for l in open(f"records/{mode}_metrics.jsonl") if '"event": "log"' in l]
    text = open(f"pythae_{mode}.log", encoding="utf-8").read()
    tr = re.findall(r"^Train loss: (\S+)$", text, re.M)
    ev = re.findall(r"^Eval loss: (\S+)$", text, re.M)
    epochs = [int(m) for m in re.findall(r"Training of epoch (\d+)/\d+:   0%", text)]
    assert epochs == [r["global_step"] for r in recs], (mode, epochs)
    assert tr == [str(np.round(r["train_epoch_loss"], 4)) for r in recs], mode
    assert ev == [str(np.round(r["eval_epoch_loss"], 4)) for r in recs if "eval_epoch_loss" in r], mode
    print(mode, "ok:", len(tr), "train lines,", len(ev), "eval lines, epochs", epochs[0], "..", epochs[-1])
    for r in recs:
        print("  epoch %2d train_epoch_loss %r -> %s   eval_epoch_loss %r" % (r["global_step"], r["train_epoch_loss"], np.round(r["train_epoch_loss"], 4), r.get("eval_epoch_loss")))
