"""VeOmni's start-up lines written by VeOmni's own logger.

VeOmni needs GPUs and a model to start its trainer, so this runs only its logger: veomni/utils/logging.py from a
VeOmni checkout (--veomni, not copied here), called from two stand-in modules (standin/veomni/...) that make the
trainer's own calls with its own messages: veomni/trainer/base.py:370 and veomni/arguments/arguments_types.py:887-890
(ByteDance-Seed/VeOmni d9774494). A 16-sample global batch of 1 sample per device on 4 data-parallel ranks.

    python capture_startup.py --veomni /path/to/VeOmni > startup.log 2>&1
"""

import argparse
import importlib.util
import logging as std_logging
import sys
import types
from pathlib import Path

parser = argparse.ArgumentParser()
parser.add_argument("--veomni", required=True, help="a VeOmni checkout")
args = parser.parse_args()

# the package "veomni" made of the stand-ins, with VeOmni's own veomni/utils/logging.py as veomni.utils.logging
here = Path(__file__).resolve().parent / "standin"
pkg = types.ModuleType("veomni")
pkg.__path__ = [str(here / "veomni")]
sys.modules["veomni"] = pkg
utils = types.ModuleType("veomni.utils")
utils.__path__ = []
sys.modules["veomni.utils"] = utils
spec = importlib.util.spec_from_file_location("veomni.utils.logging", Path(args.veomni) / "veomni/utils/logging.py")
vlog = importlib.util.module_from_spec(spec)
sys.modules["veomni.utils.logging"] = vlog
spec.loader.exec_module(vlog)
utils.logging = vlog

from veomni.arguments.arguments_types import derive  # noqa: E402
from veomni.trainer.base import log_rank  # noqa: E402

vlog.get_logger("veomni").setLevel(std_logging.INFO)
log_rank(0, 4)
derive(16, 1, 4)
derive(None, 1, 4)
