"""Time-contrastive CEBRA (conditional='time', no labels) on synthetic neural data, CPU, verbose tqdm bar.
usage: python cebra_time.py RECORD.json"""
import sys
import torch
import cebra
from synth import make_data, dump_record

torch.manual_seed(0)
neural, _ = make_data(seed=0)

cebra_model = cebra.CEBRA(
    model_architecture='offset10-model',
    batch_size=128,
    num_hidden_units=16,
    output_dimension=3,
    learning_rate=3e-4,
    temperature=1,
    max_iterations=200,
    distance='cosine',
    conditional='time',
    time_offsets=10,
    device='cpu',
    verbose=True,
)
cebra_model.fit(neural)
dump_record(cebra_model, sys.argv[1])
