#!/bin/sh
# How the folders under tests/data/runfolders/ were made (2 CPU cores, no GPU, no network model downloads).
# Each capture runs as users run it: PYTHONUNBUFFERED unset, stdout+stderr to a file, progress bars on.
# Library versions: capture-requirements.txt (pip freeze of the venv).
set -e
S=$(cd "$(dirname "$0")" && pwd)
W=${W:-/tmp/capture}
PY=${PY:-/tmp/capvenv/bin/python}        # python3 -m venv /tmp/capvenv; pip install torch transformers accelerate tensorboard lightning wandb pyyaml
unset PYTHONUNBUFFERED
mkdir -p "$W" && cd "$W"

# 1. Hugging Face Trainer (console log tee'd into the output dir as users often do)
rm -rf hf_output && mkdir hf_output
"$PY" "$S/capture_hf.py" hf_output > hf_output/train.log 2>&1
sh "$S/prune.sh" hf_output
cp -a hf_output hf_output_nolog && rm hf_output_nolog/train.log hf_output_nolog/trainer_state.json

# 2. Lightning: CSVLogger run, and default-logger (TensorBoardLogger) run
rm -rf lightning_run lightning_tb && mkdir lightning_run lightning_tb
(cd lightning_run && "$PY" "$S/capture_lightning.py" csv . > train.log 2>&1)
(cd lightning_tb && "$PY" "$S/capture_lightning.py" tb . > train.log 2>&1)
sh "$S/prune.sh" lightning_run; sh "$S/prune.sh" lightning_tb
# gradient accumulation 2, not printed; 3 epochs of 20 micro-batches, every optimizer step logged. Captured with a venv
# without rich (torch 2.13.0+cpu, lightning 2.6.6: README.md, lightning_accum/), so Lightning draws its tqdm bar
rm -rf lightning_accum && mkdir lightning_accum
(cd lightning_accum && "${PY_NORICH:-$PY}" "$S/capture_lightning.py" csv . --accumulate 2 --epochs 3 --samples 160 \
   --log-every 1 > train.log 2>&1)
sh "$S/prune.sh" lightning_accum

# 3. Megatron-LM TensorBoard (synthetic values, Megatron's exact tag names and progress.txt format)
rm -rf megatron_tb && "$PY" "$S/make_megatron_tb.py" megatron_tb

# 4. W&B offline run, then `wandb sync` against a stand-in server on 127.0.0.1
rm -rf wandb_offline wandb_synced wandb_synced_gpu && mkdir wandb_offline
(cd wandb_offline && WANDB_MODE=offline "$PY" "$S/capture_wandb.py" > console.log 2>&1)
cp -a wandb_offline wandb_synced && cp -a wandb_offline wandb_synced_gpu
"$PY" "$S/wandb_inject_gpu.py" wandb_synced_gpu/wandb/latest-run/run-*.wandb
"$PY" "$S/fake_wandb_server.py" 18765 fake_requests.jsonl fake_uploads > /dev/null 2>&1 &
SERVER=$!
sleep 1
for d in wandb_synced wandb_synced_gpu; do
  (cd $d && WANDB_BASE_URL=http://127.0.0.1:18765 WANDB_API_KEY=0123456789abcdef0123456789abcdef01234567 \
     WANDB_ERROR_REPORTING=false WANDB_ENTITY=lp-entity "$(dirname "$PY")/wandb" sync wandb/offline-run-*)
done
kill $SERVER
# then: cp -a hf_output hf_output_nolog lightning_run lightning_tb lightning_accum megatron_tb wandb_offline wandb_synced wandb_synced_gpu tests/data/runfolders/
