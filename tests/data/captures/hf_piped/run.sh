#!/bin/sh
# A Hugging Face Trainer run through a pipe (see README.md): sample_logs/capture_hf_ls5.py as a user runs a script,
# `2>&1 | tee X.log`, without PYTHONUNBUFFERED; the Trainer's trainer_state.json beside it.
set -e
cd "$(dirname "$0")"
PY=${PY:-/work/venv-tt/bin/python}
rm -rf /tmp/hf_piped
HF_HUB_OFFLINE=1 OMP_NUM_THREADS=1 env -u PYTHONUNBUFFERED "$PY" ../../../../sample_logs/capture_hf_ls5.py \
    --out /tmp/hf_piped --info --tokens-seen 2>&1 | tee hf_ls5_piped_cpu.log > /dev/null
cp /tmp/hf_piped/trainer_state.json hf_ls5_piped_cpu.trainer_state.json
rm -rf /tmp/hf_piped
