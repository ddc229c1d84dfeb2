#!/bin/bash
cd "$(dirname "$0")"
rm -rf csv_logs
"${PYTHON:-python}" run.py 2>&1 | tee console.log
