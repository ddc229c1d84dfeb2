"""Same as `python -m vowpalwabbit ARGS` (vowpalwabbit/__main__.py: Workspace(arg_list=sys.argv[1:])), plus: after
the driver has run and BEFORE finish() prints the summary, VW's own accumulators are dumped to $VW_ACCUM_JSON."""
import json, os, sys
import vowpalwabbit

vw = vowpalwabbit.Workspace(arg_list=sys.argv[1:])
with open(os.environ["VW_ACCUM_JSON"], "w") as fh:
    json.dump({"args": sys.argv[1:], "get_sum_loss": vw.get_sum_loss(), "get_holdout_sum_loss": vw.get_holdout_sum_loss(),
               "get_weighted_examples": vw.get_weighted_examples()}, fh, indent=1)
vw.finish()
