"""Dump the history records of a wandb offline run file (run-*.wandb, leveldb-log framing) to JSONL, and check them
against the JSONL the patched train.py wrote. usage: python read_wandb_history.py RUN.wandb OUT.jsonl [CHECK.jsonl]"""
import json, struct, sys
from wandb.proto import wandb_internal_pb2 as pb

def records(path):
    data = open(path, "rb").read()
    assert data[:4] == b":W&B", data[:7]
    pos, block, buf = 7, 32768, b""
    while pos + 7 <= len(data):
        left = block - pos % block
        if left < 7:                    # block trailer padding
            pos += left
            continue
        _crc, length, rtype = struct.unpack("<IHB", data[pos:pos + 7])
        if rtype == 0 and length == 0:  # zero padding
            pos += left
            continue
        chunk = data[pos + 7:pos + 7 + length]
        pos += 7 + length
        if rtype == 1:                  # FULL
            yield chunk
        elif rtype == 2:                # FIRST
            buf = chunk
        elif rtype == 3:                # MIDDLE
            buf += chunk
        elif rtype == 4:                # LAST
            yield buf + chunk
            buf = b""

hist = []
for raw in records(sys.argv[1]):
    r = pb.Record()
    r.ParseFromString(raw)
    if r.WhichOneof("record_type") == "history":
        hist.append({(i.key or "/".join(i.nested_key)): json.loads(i.value_json) for i in r.history.item})
with open(sys.argv[2], "w") as f:
    for h in hist:
        f.write(json.dumps(h) + "\n")
print(len(hist), "history rows ->", sys.argv[2])
if len(sys.argv) > 3:
    mine = [json.loads(l) for l in open(sys.argv[3])]
    assert len(mine) == len(hist)
    for h, m in zip(hist, mine):
        assert h["loss"] == m["loss"] and h["trained_tokens"] == m["trained_tokens"], (h, m)
        assert abs(h["tokens_per_second"] - m["tokens_per_second"]) <= 1e-9 * m["tokens_per_second"], (h, m)
        assert abs(h["mfu"] - m["mfu_percent"]) <= 1e-9 * m["mfu_percent"], (h, m)
    print("every row matches", sys.argv[3], "(loss, trained_tokens, tokens_per_second, mfu)")
