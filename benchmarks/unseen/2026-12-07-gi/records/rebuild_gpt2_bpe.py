# rebuild GPT-2's vocab.bpe / encoder.json from the r50k_base ranks (whisper's gpt2.tiktoken), check sha256
import base64, json, hashlib
ranks = {}
for line in open("r50k_base.tiktoken","rb").read().splitlines():
    tok, r = line.split()
    ranks[base64.b64decode(tok)] = int(r)
# data gym byte mapping (as in tiktoken/load.py)
rank_to_intbyte = [b for b in range(2**8) if chr(b).isprintable() and chr(b) != " "]
data_gym_byte_to_byte = {chr(b): b for b in rank_to_intbyte}
n = 0
for b in range(2**8):
    if b not in rank_to_intbyte:
        rank_to_intbyte.append(b)
        data_gym_byte_to_byte[chr(2**8 + n)] = b
        n += 1
byte_to_dg = {v: k for k, v in data_gym_byte_to_byte.items()}
def dg(bs): return "".join(byte_to_dg[b] for b in bs)
def bpe_parts(token, max_rank):
    parts = [bytes([b]) for b in token]
    while True:
        best = None
        for i in range(len(parts)-1):
            r = ranks.get(parts[i]+parts[i+1])
            if r is not None and r < max_rank and (best is None or r < best[0]):
                best = (r, i)
        if best is None: break
        i = best[1]
        parts = parts[:i] + [parts[i]+parts[i+1]] + parts[i+2:]
    return parts
by_rank = sorted(ranks.items(), key=lambda kv: kv[1])
merges = []
for tok, r in by_rank:
    if r < 256: continue
    p = bpe_parts(tok, r)
    assert len(p) == 2, (tok, r, p)
    merges.append(dg(p[0]) + " " + dg(p[1]))
for variant, txt in {"a": "#version: 0.2\n" + "\n".join(merges) + "\n", "b": "#version: 0.2\n" + "\n".join(merges)}.items():
    h = hashlib.sha256(txt.encode()).hexdigest(); print("vocab.bpe", variant, h)
    if h == "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5":
        open("vocab.bpe","w").write(txt)
enc = {dg(tok): r for tok, r in by_rank}
enc["<|endoftext|>"] = 50256
for variant, kw in {"a": {}, "b": {"separators": (",", ":")}, "c": {"ensure_ascii": False}, "d": {"ensure_ascii": False, "separators": (",", ":")}}.items():
    txt = json.dumps(enc, **kw)
    h = hashlib.sha256(txt.encode()).hexdigest(); print("encoder.json", variant, h)
    if h == "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783":
        open("encoder.json","w").write(txt)
