#!/bin/sh
# A real run of llama2.c's train.py on CPU (see README.md). L2C is a checkout of karpathy/llama2.c at 350e04f.
set -e
L2C=${L2C:?set L2C to a karpathy/llama2.c checkout}; PY=${PY:-python3}
HERE="$(cd "$(dirname "$0")" && pwd)"; WORK=$(mktemp -d)
cp "$L2C"/train.py "$L2C"/model.py "$L2C"/tinystories.py "$L2C"/export.py "$L2C"/configurator.py "$L2C"/tokenizer.py "$WORK/"
cd "$WORK" && "$PY" "$HERE/make_data.py"
OMP_NUM_THREADS=1 "$PY" train.py --vocab_source=custom --vocab_size=256 --dim=64 --n_layers=2 --n_heads=4 \
    --n_kv_heads=4 --max_seq_len=64 --batch_size=4 --gradient_accumulation_steps=2 --max_iters=40 \
    --eval_interval=20 --eval_iters=2 --log_interval=1 --warmup_iters=5 --learning_rate=2e-3 --device=cpu \
    --dtype=float32 --compile=False --always_save_checkpoint=True > "$HERE/llama2c_train_cpu.log" 2>&1
cd / && rm -rf "$WORK"
