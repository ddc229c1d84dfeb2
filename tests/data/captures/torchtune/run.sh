#!/bin/sh
# Real torchtune runs on CPU (see README.md): the console as a user captures it, and the framework's record.
# `./run.sh` makes all five; `./run.sh piped` only those through a pipe (3, 4 and 5).
set -e
cd "$(dirname "$0")"  # writes its scratch folders work/, work2/ and work3/ here and removes them
PY=${PY:-/work/venv-tt/bin/python}; TUNE=${TUNE:-/work/venv-tt/bin/tune}
export RUN_DIR="$PWD/work" OMP_NUM_THREADS=1 PYTHONPATH="$PWD"
TEE="metric_logger._component_=tee_logger.TeeStdoutLogger ~metric_logger.log_dir"
rm -rf work && "$PY" prepare.py work && mkdir work/ckpt && mv work/model.pt work/ckpt/
if [ "$1" != piped ]; then
    # 1 and 2 were captured with PYTHONUNBUFFERED=1 in the environment: stdout unbuffered, lines in the order printed
    export PYTHONUNBUFFERED=1
    # 1. DiskLogger: the console shows only the tqdm bar; the logger's file is the record
    "$TUNE" run full_finetune_single_device --config config.yaml > torchtune_disklogger_cpu.log 2>&1
    cp work/out/logs/log_*.txt torchtune_disklogger_cpu.disklogger.txt
    rm -rf work/out
    # 2. StdoutLogger (torchtune's, through tee_logger.py, which also writes each payload to a JSONL)
    $TUNE run full_finetune_single_device --config config.yaml $TEE \
        metric_logger.jsonl_path="$RUN_DIR/metrics.jsonl" > torchtune_stdout_cpu.log 2>&1
    cp work/metrics.jsonl torchtune_stdout_cpu.metrics.jsonl
    rm -rf work/out work/metrics.jsonl
    unset PYTHONUNBUFFERED
fi
# 3. run 2 through a pipe, as `tune run ... 2>&1 | tee train.log`, without PYTHONUNBUFFERED: stdout (the Step
#    lines) is block-buffered, stderr (the bar, logging) is not; tqdm flushes stdout when it opens a bar
env -u PYTHONUNBUFFERED $TUNE run full_finetune_single_device --config config.yaml $TEE \
    metric_logger.jsonl_path="$RUN_DIR/metrics.jsonl" 2>&1 | tee torchtune_piped_cpu.log > /dev/null
cp work/metrics.jsonl torchtune_piped_cpu.metrics.jsonl
rm -rf work
# 4. as 3, with epochs of 118 optimizer steps (the dataset twice, batch 1, no accumulation): 15 KiB of Step
#    lines an epoch, so stdout also flushes in the middle of each epoch (8 KiB blocks, cut anywhere in a line)
export RUN_DIR="$PWD/work2"
rm -rf work2 && "$PY" prepare.py work2 2 && mkdir work2/ckpt && mv work2/model.pt work2/ckpt/
env -u PYTHONUNBUFFERED $TUNE run full_finetune_single_device --config config.yaml \
    batch_size=1 gradient_accumulation_steps=1 $TEE \
    metric_logger.jsonl_path="$RUN_DIR/metrics.jsonl" 2>&1 | tee torchtune_piped_long_cpu.log > /dev/null
cp work2/metrics.jsonl torchtune_piped_long_cpu.metrics.jsonl
rm -rf work2
# 5. as 3 with 3 epochs, failing after step 35 (tee_logger's fail_at_step raises), then resumed from the recipe
#    state of the end of epoch 2 (step 28), the second attempt's console appended to the same file (tee -a)
export RUN_DIR="$PWD/work3"
rm -rf work3 && "$PY" prepare.py work3 && mkdir work3/ckpt && mv work3/model.pt work3/ckpt/
env -u PYTHONUNBUFFERED $TUNE run full_finetune_single_device --config config.yaml epochs=3 $TEE \
    metric_logger.fail_at_step=35 metric_logger.jsonl_path="$RUN_DIR/metrics.jsonl" \
    2>&1 | tee torchtune_piped_resumed_cpu.log > /dev/null
env -u PYTHONUNBUFFERED $TUNE run full_finetune_single_device --config config.yaml epochs=3 $TEE \
    resume_from_checkpoint=True 'checkpointer.checkpoint_files=[epoch_1/model-00001-of-00001.bin]' \
    metric_logger.jsonl_path="$RUN_DIR/metrics.jsonl" 2>&1 | tee -a torchtune_piped_resumed_cpu.log > /dev/null
cp work3/metrics.jsonl torchtune_piped_resumed_cpu.metrics.jsonl
rm -rf work3
