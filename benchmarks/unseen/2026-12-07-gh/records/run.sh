#!/usr/bin/env bash
# The runs of this folder, from a picotron checkout (git commit 59714b1) with records/picotron_cpu_and_jsonl.patch applied,
# in a venv with torch 2.13.0+cpu and picotron installed (pip install --no-deps -e .), no network.
set -euo pipefail
OUT=/work/corpus/2026-12-07-gh
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1     # no route to the Hugging Face hub on this machine
export HF_HOME=/tmp/cap-picotron-work/hf_home    # a private datasets cache (others share this machine)
python make_local_assets.py                       # tiny local dataset/tokenizer/model config (see that file)

# --- log 1: one process (dp 1), 30 steps, a checkpoint every 10 steps (silent)
python create_config.py --out_dir tmp --exp_name tiny-cpu-1proc --dp 1 --model_name assets/tiny-llama \
    --num_hidden_layers 2 --num_attention_heads 4 --num_key_value_heads 2 --grad_acc_steps 2 --mbs 4 --seq_len 128 \
    --hf_token hf_dummy_offline --use_cpu
python edit_config.py tmp/tiny-cpu-1proc/config.json dataset.name=assets/tiny-text training.total_train_steps=30 checkpoint.save_frequency=10
PICOTRON_METRICS_JSONL=$OUT/records/picotron_cpu_1proc.jsonl \
    torchrun --nproc_per_node 1 train.py --config tmp/tiny-cpu-1proc/config.json > $OUT/picotron_cpu_1proc.log 2>&1

# --- log 2: two processes, data parallel 2 over gloo, 30 steps
python create_config.py --out_dir tmp --exp_name tiny-cpu-dp2 --dp 2 --model_name assets/tiny-llama \
    --num_hidden_layers 2 --num_attention_heads 4 --num_key_value_heads 2 --grad_acc_steps 1 --mbs 4 --seq_len 128 \
    --hf_token hf_dummy_offline --use_cpu
python edit_config.py tmp/tiny-cpu-dp2/config.json dataset.name=assets/tiny-text training.total_train_steps=30
PICOTRON_METRICS_JSONL=$OUT/records/picotron_cpu_dp2_gloo.jsonl \
    torchrun --nproc_per_node 2 train.py --config tmp/tiny-cpu-dp2/config.json > $OUT/picotron_cpu_dp2_gloo.log 2>&1

# --- log 3: one process, resumed from log 1's step-20 checkpoint, to step 40, with wandb logging in offline mode
python create_config.py --out_dir tmp --exp_name tiny-cpu-resume --dp 1 --model_name assets/tiny-llama \
    --num_hidden_layers 2 --num_attention_heads 4 --num_key_value_heads 2 --grad_acc_steps 2 --mbs 4 --seq_len 128 \
    --hf_token hf_dummy_offline --use_cpu --use_wandb
python edit_config.py tmp/tiny-cpu-resume/config.json dataset.name=assets/tiny-text training.total_train_steps=40 \
    checkpoint.load_path=tmp/tiny-cpu-1proc/20
mkdir -p $OUT/records/wandb_resume
WANDB_MODE=offline WANDB_DIR=$OUT/records/wandb_resume PICOTRON_METRICS_JSONL=$OUT/records/picotron_cpu_resume_wandb.jsonl \
    torchrun --nproc_per_node 1 train.py --config tmp/tiny-cpu-resume/config.json > $OUT/picotron_cpu_resume_wandb.log 2>&1
