#!/bin/bash
# Capture of `spacy train` on a tiny synthetic textcat task (CPU).
set -e
cd "$(dirname "$0")"
PY="${PYTHON:-python}"
"$PY" make_data.py
"$PY" -m spacy init config --lang en --pipeline textcat --optimize efficiency --force base.cfg
# Only overrides on the command line: 3 epochs, evaluate every 4 steps,
# batch size 8, and the default ConsoleLogger.v3 also writing its JSONL record.
rm -rf output training_log.jsonl
"$PY" -m spacy train base.cfg --output output \
  --paths.train train.spacy --paths.dev dev.spacy \
  --training.max_epochs 3 --training.max_steps 0 --training.eval_frequency 4 \
  --training.patience 0 --training.batcher.size 8 \
  --training.logger '{"@loggers":"spacy.ConsoleLogger.v3","progress_bar":"eval","console_output":true,"output_file":"training_log.jsonl"}' \
  2>&1 | tee console.log
