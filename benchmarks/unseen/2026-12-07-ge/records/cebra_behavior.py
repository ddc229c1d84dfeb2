"""Behaviour-supervised CEBRA (conditional='time_delta', continuous 1-d position label) on synthetic neural data,
CPU, verbose tqdm bar.  usage: python cebra_behavior.py RECORD.json"""
import sys
import torch
import cebra
from synth import make_data, dump_record

torch.manual_seed(1)
neural, position = make_data(seed=1)

cebra_model = cebra.CEBRA(
    model_architecture='offset10-model',
    batch_size=128,
    num_hidden_units=16,
    output_dimension=3,
    learning_rate=3e-4,
    temperature=1,
    max_iterations=250,
    distance='cosine',
    conditional='time_delta',
    time_offsets=10,
    device='cpu',
    verbose=True,
)
cebra_model.fit(neural, position)
dump_record(cebra_model, sys.argv[1])
