# Dumps the history rows of wandb's offline run record (wandb/offline-run-*/run-*.wandb, written by wandb.log() via
# torch_geometric.logging.log) to wandb_history.json, values unmodified. The .wandb file is wandb's LevelDB-style
# log (7-byte ':W&B' header, 32 KiB blocks, 7-byte chunk headers crc32/len/type) of protobuf Records; wandb 0.31
# ships no Python reader for it, so the chunks are joined here and parsed with wandb's own protobuf classes.
import glob, json, struct
from wandb.proto import wandb_internal_pb2
f = sorted(glob.glob("wandb/offline-run-*/run-*.wandb"))[-1]
buf = open(f, "rb").read()
assert buf[:4] == b":W&B"
BLOCK, pos, chunks, cur = 32768, 7, [], b""
while pos + 7 <= len(buf):
    left = BLOCK - pos % BLOCK
    if left < 7:                      # block trailer padding
        pos += left; continue
    crc, ln, typ = struct.unpack("<IHB", buf[pos:pos + 7])
    if typ == 0 and ln == 0:
        pos += left; continue
    data = buf[pos + 7:pos + 7 + ln]; pos += 7 + ln
    if typ == 1: chunks.append(data)
    elif typ == 2: cur = data
    elif typ == 3: cur += data
    elif typ == 4: chunks.append(cur + data); cur = b""
rows, summary = [], {}
for data in chunks:
    rec = wandb_internal_pb2.Record(); rec.ParseFromString(data)
    kind = rec.WhichOneof("record_type")
    if kind == "history":
        rows.append({(it.key or "/".join(it.nested_key)): json.loads(it.value_json) for it in rec.history.item})
    elif kind == "summary":
        for it in rec.summary.update:
            summary[it.key or "/".join(it.nested_key)] = json.loads(it.value_json)
json.dump({"source": f, "history": rows, "summary": summary}, open("wandb_history.json", "w"), indent=0)
print(len(chunks), "records,", len(rows), "history rows; keys", sorted(rows[0]) if rows else None)
