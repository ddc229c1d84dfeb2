# pykan "Hello, KAN!" quick start (hellokan.ipynb in github.com/KindXiaoming/pykan), trained with
# opt="Adam" (fit's documented alternative optimizer) instead of LBFGS; plotting dropped; the dict fit() returns
# dumped to JSON (the record).
import json
import sys
from kan import *
torch.set_default_dtype(torch.float64)

device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
print(device)

model = KAN(width=[2,5,1], grid=3, k=3, seed=42, device=device)

from kan.utils import create_dataset
f = lambda x: torch.exp(torch.sin(torch.pi*x[:,[0]]) + x[:,[1]]**2)
dataset = create_dataset(f, n_var=2, device=device)

results = model.fit(dataset, opt="Adam", steps=30, lr=0.01);

# added: the record
json.dump({k: [float(v) for v in vs] for k, vs in results.items()}, open(sys.argv[1], "w"), indent=1)
