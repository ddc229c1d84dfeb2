"""Record what cornac itself computes/prints, to JSONL, without changing its console output.

- PMF: cornac/models/pmf/pmf.pyx pmf_linear/pmf_non_linear return {'U','V','loss'} where 'loss' is the
  per-epoch loss array that the 'epoch %i, loss: %f' lines print; PMF.fit() drops it. We wrap the two
  functions and dump every element of res['loss'] (unrounded float64).
- tqdm-based models (MF backend_cpu, VAECF): cornac calls progress.set_postfix(...) on its trange bar.
  We swap the module's `trange` for a tqdm subclass that writes each set_postfix call (its arguments as
  passed by cornac, the bar counter self.n shown in that refreshed frame) to JSONL, then defers to tqdm.
"""
import json
import time

from tqdm.auto import tqdm as _tqdm


class _JsonlSink:
    def __init__(self, path):
        self.f = open(path, "w")

    def write(self, **rec):
        rec["wall_time"] = time.time()
        self.f.write(json.dumps(rec) + "\n")
        self.f.flush()


def hook_pmf(path):
    from cornac.models.pmf import pmf as pmf_mod

    sink = _JsonlSink(path)
    for fname in ("pmf_linear", "pmf_non_linear"):
        orig = getattr(pmf_mod, fname)

        def wrapped(*args, __orig=orig, __fname=fname, **kwargs):
            res = __orig(*args, **kwargs)
            for epoch, loss in enumerate(list(res["loss"])):
                sink.write(model="PMF", fn=__fname, epoch=epoch, loss=float(loss))
            return res

        setattr(pmf_mod, fname, wrapped)


def hook_trange(module, model_name, path):
    sink = _JsonlSink(path)

    class RecordingTqdm(_tqdm):
        def set_postfix(self, ordered_dict=None, refresh=True, **kwargs):
            post = dict(ordered_dict or {})
            post.update(kwargs)
            sink.write(model=model_name, bar_n=int(self.n), bar_total=self.total,
                       postfix={k: (v if isinstance(v, str) else float(v)) for k, v in post.items()})
            return super().set_postfix(ordered_dict, refresh=refresh, **kwargs)

    def trange(*args, **kwargs):
        return RecordingTqdm(range(*args), **kwargs)

    module.trange = trange
