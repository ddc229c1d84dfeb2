# Writes a tiny synthetic dataset in RecBole's atomic-file format: dataset/synth/synth.inter
import os, random
random.seed(0)
os.makedirs("dataset/synth", exist_ok=True)
with open("dataset/synth/synth.inter", "w") as f:
    f.write("user_id:token\titem_id:token\trating:float\ttimestamp:float\n")
    t = 880000000
    for u in range(1, 301):
        items = random.sample(range(1, 401), random.randint(12, 30))
        for i in items:
            t += random.randint(1, 500)
            f.write(f"{u}\t{i}\t{random.randint(1,5)}\t{t}\n")
