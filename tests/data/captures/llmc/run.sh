#!/bin/sh
# A real run of llm.c's train_gpt2.c on CPU (see README.md). LLMC is a checkout of karpathy/llm.c at f1e2ace.
set -e
LLMC=${LLMC:?set LLMC to a karpathy/llm.c checkout}; PY=${PY:-python3}
HERE="$(cd "$(dirname "$0")" && pwd)"; WORK=$(mktemp -d)
cp -r "$LLMC/train_gpt2.c" "$LLMC/llmc" "$WORK/" && cd "$WORK"
"$PY" "$HERE/make_inputs.py"
gcc -Ofast -Wno-unused-result -Wno-ignored-pragmas -Wno-unknown-attributes -march=native -fopenmp -DOMP train_gpt2.c -lm -lgomp -o train_gpt2
OMP_NUM_THREADS=1 ./train_gpt2 > "$HERE/train_gpt2c_cpu.log" 2>&1
cd / && rm -rf "$WORK"
