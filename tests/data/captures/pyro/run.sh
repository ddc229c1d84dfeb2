#!/bin/bash
cd "$(dirname "$0")"
rm -f losses.json
"${PYTHON:-python}" run.py 2>&1 | tee console.log
