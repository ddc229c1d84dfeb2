"""fastText Python quick-start style training; fastText's own console output goes to stderr (C++ std::cerr).

usage: ft_train.py supervised|skipgram RECORD.json key=value ...   (hyper-parameters passed straight to fasttext)
After training, writes fastText's own view of the run to RECORD.json: the returned model's args (model.f.getArgs()),
the dictionary sizes (len(model.words), len(model.labels)), the token count the dictionary read, and for supervised
models fastText's own test() on the validation file.
"""
import importlib.metadata, json, sys, os, time
import fasttext

mode, record = sys.argv[1], sys.argv[2]
kw = {}
for kv in sys.argv[3:]:
    k, v = kv.split("=", 1)
    for cast in (int, float):
        try:
            v = cast(v); break
        except ValueError:
            pass
    kw[k] = v
valid = kw.pop("valid", None)
t0 = time.time()
if mode == "supervised":
    model = fasttext.train_supervised(**kw)
else:
    model = fasttext.train_unsupervised(model=mode, **kw)
wall = time.time() - t0

a = model.f.getArgs()
args = {k: getattr(a, k) for k in dir(a) if not k.startswith("_") and isinstance(getattr(a, k), (int, float, str, bool))}
for k in ("loss", "model"):
    args[k] = str(getattr(a, k))
ntokens = 0
with open(kw["input"]) as fh:
    for line in fh:
        ntokens += len(line.split()) + 1  # fastText counts one EOS token "</s>" per line (Dictionary::readWord)
rec = {"mode": mode, "kwargs": kw, "args": args, "nwords": len(model.words), "nlabels": len(model.f.getLabels("strict")[0]),
       "ntokens_counted_here": ntokens, "wall_seconds_train_call": wall, "fasttext_wheel_version": importlib.metadata.version("fasttext-wheel")}
if valid:
    n, p1, r1 = model.test(valid)
    rec["test"] = {"file": valid, "N": n, "precision_at_1": p1, "recall_at_1": r1}
with open(record, "w") as fh:
    json.dump(rec, fh, indent=1)
