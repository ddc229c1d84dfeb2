#!/bin/bash
cd "$(dirname "$0")"
rm -rf evals_result.json catboost_info
"${PYTHON:-python}" run.py 2>&1 | tee console.log
