#!/bin/bash
cd "$(dirname "$0")"
rm -f evals_result.json
"${PYTHON:-python}" run.py 2>&1 | tee console.log
