#!/bin/bash
# PyG examples/gcn.py (dataset swapped for FakeDataset, see README), tracked with --wandb in offline mode:
# wandb's offline run directory is the record.
cd "$(dirname "$0")"
rm -rf wandb
export WANDB_MODE=offline WANDB_SILENT=false WANDB_DIR="$PWD"
"${PYTHON:-python}" gcn.py --dataset FakeCora --wandb 2>&1 | tee console.log
