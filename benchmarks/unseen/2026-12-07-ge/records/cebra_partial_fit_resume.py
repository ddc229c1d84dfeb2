"""CEBRA-Behavior trained in two chunks with partial_fit (the documented way to continue training), saving the
model after each chunk with CEBRA.save, then loading the last save with CEBRA.load. CPU, verbose tqdm bar.
usage: python cebra_partial_fit_resume.py RECORD.json"""
import json
import sys
import torch
import cebra
from synth import make_data, dump_record

torch.manual_seed(2)
neural, position = make_data(seed=2)

cebra_model = cebra.CEBRA(
    model_architecture='offset10-model',
    batch_size=128,
    num_hidden_units=16,
    output_dimension=3,
    learning_rate=3e-4,
    temperature=1,
    max_iterations=120,          # iterations per partial_fit call
    distance='cosine',
    conditional='time_delta',
    time_offsets=10,
    device='cpu',
    verbose=True,
)
cebra_model.partial_fit(neural, position)
cebra_model.save('cebra_resume_chunk1.pt')
dump_record(cebra_model, sys.argv[1].replace('.json', '_chunk1.json'))
cebra_model.partial_fit(neural, position)     # continues from the fitted state (same solver, same log)
cebra_model.save('cebra_resume_chunk2.pt')
dump_record(cebra_model, sys.argv[1])

loaded = cebra.CEBRA.load('cebra_resume_chunk2.pt')
dump_record(loaded, sys.argv[1].replace('.json', '_loaded.json'))
