#!/bin/bash
cd "$(dirname "$0")"
rm -rf ray_results
RAY_TRAIN_V2_ENABLED=0 "${PYTHON:-python}" run.py 2>&1 | tee console.log
