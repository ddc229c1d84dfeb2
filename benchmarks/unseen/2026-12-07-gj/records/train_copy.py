import tqdm
import json  # [capture] JSONL record
import torch
import torch.optim as optim
from x_transformers import XTransformer

# constants

NUM_BATCHES = 40  # [capture] was int(1e5)
BATCH_SIZE = 16  # [capture] was 32
LEARNING_RATE = 3e-4
GENERATE_EVERY  = 10  # [capture] was 100
NUM_TOKENS = 16 + 2
ENC_SEQ_LEN = 32
DEC_SEQ_LEN = 64 + 1
DEVICE = 'cuda' if torch.cuda.is_available() else 'cpu'

# helpers

def cycle():
    while True:
        prefix = torch.ones((BATCH_SIZE, 1)).long().to(DEVICE)
        src = torch.randint(2, NUM_TOKENS, (BATCH_SIZE, ENC_SEQ_LEN)).long().to(DEVICE)
        tgt = torch.cat((prefix, src, src), 1)
        src_mask = torch.ones(BATCH_SIZE, src.shape[1]).bool().to(DEVICE)
        yield (src, tgt, src_mask)

# instantiate model

model = XTransformer(
    dim = 64,  # [capture] was 128
    tie_token_emb = True,
    return_tgt_loss = True,
    enc_num_tokens=NUM_TOKENS,
    enc_depth = 2,  # [capture] was 3
    enc_heads = 4,  # [capture] was 8
    enc_max_seq_len = ENC_SEQ_LEN,
    enc_attn_cog_signed = True,
    dec_num_tokens = NUM_TOKENS,
    dec_depth = 2,  # [capture] was 3
    dec_heads = 4,  # [capture] was 8
    dec_max_seq_len = DEC_SEQ_LEN,
    dec_attn_cog_signed = True
).to(DEVICE)

# optimizer

optim = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE)

# training

record = open('records/x_transformers_copy_record.jsonl', 'w', buffering = 1)  # [capture] the run's own record, one JSON line beside each print

for i in tqdm.tqdm(range(NUM_BATCHES), mininterval=10., desc='training'):
    model.train()

    src, tgt, src_mask = next(cycle())

    loss = model(src, tgt, mask=src_mask)
    loss.backward()
    print(f'{i}: {loss.item()}')
    record.write(json.dumps(dict(step = i, loss = loss.item())) + '\n')  # [capture]

    optim.step()
    optim.zero_grad()

    if i != 0 and i % GENERATE_EVERY == 0:
        model.eval()
        src, _, src_mask = next(cycle())
        src, src_mask = src[:1], src_mask[:1]
        start_tokens = (torch.ones((1, 1)) * 1).long().to(DEVICE)

        sample = model.generate(src, start_tokens, ENC_SEQ_LEN, mask = src_mask)
        incorrects = (src != sample).long().abs().sum()

        print(f"input:  ", src)
        print(f"predicted output:  ", sample)
        print(f"incorrects: {incorrects}")
        record.write(json.dumps(dict(step = i, event = "generate", incorrects = int(incorrects))) + '\n')  # [capture]
