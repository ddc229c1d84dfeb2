"""Edit a config.json written by picotron's create_config.py for options it has no flag for.
usage: python edit_config.py CONFIG key.path=value ...   (value parsed as JSON when it parses, else a string)"""
import json, sys
path = sys.argv[1]
cfg = json.load(open(path))
for kv in sys.argv[2:]:
    key, val = kv.split("=", 1)
    try:
        val = json.loads(val)
    except json.JSONDecodeError:
        pass
    *parents, leaf = key.split(".")
    d = cfg
    for p in parents:
        d = d[p]
    d[leaf] = val
    print(f"{path}: {key} = {val!r}")
json.dump(cfg, open(path, "w"), indent=4)
