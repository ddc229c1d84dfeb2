#!/bin/sh
# Two real torchtune runs on CPU (see README.md): the console as a user captures it, and the framework's record.
set -e
cd "$(dirname "$0")"  # writes its scratch folder work/ here and removes it
PY=${PY:-/work/venv-h1/bin/python}; TUNE=${TUNE:-/work/venv-h1/bin/tune}
export RUN_DIR="$PWD/work" OMP_NUM_THREADS=1 PYTHONPATH="$PWD"
rm -rf work && "$PY" prepare.py work && mkdir work/ckpt && mv work/model.pt work/ckpt/
# 1. DiskLogger: the console shows only the tqdm bar; the logger's file is the record
"$TUNE" run full_finetune_single_device --config config.yaml > torchtune_disklogger_cpu.log 2>&1
cp work/out/logs/log_*.txt torchtune_disklogger_cpu.disklogger.txt
rm -rf work/out
# 2. StdoutLogger (torchtune's, through tee_logger.py, which also writes each payload to a JSONL)
"$TUNE" run full_finetune_single_device --config config.yaml \
    metric_logger._component_=tee_logger.TeeStdoutLogger '~metric_logger.log_dir' \
    metric_logger.jsonl_path="$RUN_DIR/metrics.jsonl" > torchtune_stdout_cpu.log 2>&1
cp work/metrics.jsonl torchtune_stdout_cpu.metrics.jsonl
rm -rf work
