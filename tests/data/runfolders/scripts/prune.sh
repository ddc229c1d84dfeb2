#!/bin/sh
# Delete weights / binary optimizer state / tokenizer files from a captured run folder.
# Usage: sh prune.sh DIR
find "$1" -type f \( -name '*.safetensors' -o -name '*.bin' -o -name '*.pt' -o -name '*.pth' \
  -o -name '*.ckpt' -o -name 'rng_state*' -o -name 'tokenizer*' -o -name 'special_tokens_map.json' \
  -o -name 'vocab.*' -o -name 'merges.txt' \) -print -delete
