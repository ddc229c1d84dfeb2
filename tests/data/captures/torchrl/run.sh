#!/bin/bash
cd "$(dirname "$0")"
rm -rf csv_logs
/work/capvenv/bin/python run.py 2>&1 | tee console.log
