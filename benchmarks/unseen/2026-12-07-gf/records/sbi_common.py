"""Shared bits: a tiny Gaussian simulator (sbi's quick-start example) and a JSON dump of the
inference object's own training record, `inference._summary`."""
import json

import torch
from sbi.utils import BoxUniform


def make_prior(dim=3):
    return BoxUniform(low=-2 * torch.ones(dim), high=2 * torch.ones(dim))


def simulator(theta):
    # x = theta + 1.0 + 0.1 * noise  (the sbi README / quick-start toy simulator)
    return theta + 1.0 + torch.randn_like(theta) * 0.1


def dump_summary(inference, path):
    rec = {k: [float(v) if not isinstance(v, int) else v for v in vals]
           for k, vals in inference._summary.items()}
    with open(path, "w") as f:
        json.dump(rec, f, indent=1)
