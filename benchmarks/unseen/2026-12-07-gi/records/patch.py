import sys
src = open("../train_gpt2.py").read()
total, max_steps, every = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
def sub(old, new, count=1):
    global src
    assert src.count(old) == count, (old, src.count(old))
    src = src.replace(old, new)
sub("from hellaswag import render_example, iterate_examples\n",
    "# from hellaswag import render_example, iterate_examples  # HellaSwag eval disabled: its data cannot be downloaded here\nimport json\n")
sub("total_batch_size = 524288 # 2**19, ~0.5M, in number of tokens", f"total_batch_size = {total} # shrunk for a CPU run")
sub("B = 64 # micro batch size", "B = 8 # micro batch size")
sub("T = 1024 # sequence length", "T = 64 # sequence length")
sub("model = GPT(GPTConfig(vocab_size=50304))", "model = GPT(GPTConfig(block_size=64, vocab_size=50304, n_layer=2, n_head=2, n_embd=64))")
sub("warmup_steps = 715", "warmup_steps = 5")
sub("max_steps = 19073 #", f"max_steps = {max_steps} #")
sub("    if step % 250 == 0 or last_step:\n", f"    if step % {every} == 0 or last_step:\n")
sub("    if (step % 250 == 0 or last_step) and (not use_compile):\n",
    f"    if False and (step % {every} == 0 or last_step) and (not use_compile): # HellaSwag eval disabled (no download)\n")
sub("    if ((step > 0 and step % 250 == 0) or last_step) and (not use_compile):\n",
    f"    if ((step > 0 and step % {every} == 0) or last_step) and (not use_compile):\n")
sub("""            f.write(f"{step} train {loss_accum.item():.6f}\\n")\n""",
    """            f.write(f"{step} train {loss_accum.item():.6f}\\n")
        with open(os.path.join(log_dir, "steps.jsonl"), "a") as f: # added: the printed values, unrounded
            f.write(json.dumps({"step": step, "loss": loss_accum.item(), "lr": lr, "norm": norm.item(), "dt_s": dt, "tokens_per_sec": tokens_per_sec, "grad_accum_steps": grad_accum_steps}) + "\\n")\n""")
open(sys.argv[4], "w").write(src)
