#!/usr/bin/env python3
"""The bench's training step in PyTorch, for `npm run bench -- --peers`.

    /usr/bin/python3 scripts/torch_bench.py WEIGHTS.safetensors BATCH.json

WEIGHTS is a checkpoint (the model config in its metadata); BATCH.json holds B, T, tokens and
targets (B·T ids each, row-major, unpadded), the per-row loss weights, the optimizer and
minSeconds. It runs the module and AdamW of torch_reference.py in float32 on OMP_NUM_THREADS
threads (one where unset): one untimed warm-up step, then steps until minSeconds have passed; a
step is the forward pass with
L = −Σ w·log p(target), the backward pass and the AdamW update. With a "decode" entry in BATCH.json
(B, promptLength, newTokens) it also times batched sampling with a KV cache as the bench times
ours: the prompt's prefill and first token untimed, then one decoding step per new token, runs
repeated until minSeconds have passed; the last step's logits are checked against the whole
sequence's forward pass. Prints one JSON object: the loss of the first two steps (before and after
one update), the mean step time in ms, the decoding figures, the torch version and the BLAS library
this process loaded (torch links libblas.so.3; the system's alternative or LD_LIBRARY_PATH decides
which file that is).
"""

import json
import math
import os
import re
import sys
import time

import torch
import torch.nn.functional as F

from torch_reference import FORMAT, AdamW, Policy, digit_places, read_safetensors, rope


def loaded_blas():
    """The BLAS-like libraries mapped into this process, by their real paths."""
    try:
        with open("/proc/self/maps") as f:
            paths = {line.split()[-1] for line in f if "/" in line}
    except OSError:  # not Linux: nothing to read
        return []
    return sorted(p for p in paths if re.search(r"blas|mkl|blis", os.path.basename(p)))


def blas_name(libs):
    """The BLAS in words, e.g. "OpenBLAS 0.3.21 (openmp)" or "reference BLAS"."""
    for p in libs:
        m = re.search(r"libopenblas\w*-r([\d.]+)\.so", p)
        if m:
            # Debian keeps each build in its folder: openblas-{openmp,pthread,serial}.
            variant = os.path.basename(os.path.dirname(p))
            kind = variant[len("openblas-") :] if variant.startswith("openblas-") else ""
            return f"OpenBLAS {m.group(1)}" + (f" ({kind})" if kind else "")
    for p in libs:
        if "mkl" in os.path.basename(p):
            return "MKL"
        if "blis" in os.path.basename(p):
            return "BLIS"
    for p in libs:
        if re.search(r"/blas/libblas\.so", p):  # Debian's libblas3: the netlib reference
            return "reference BLAS"
    return os.path.basename(libs[0]) if libs else "unknown"


@torch.no_grad()
def decode(model, prompts, new_tokens, gen):
    """Sample new_tokens after prompts [B, P] with a KV cache. Returns the ms of each decoding
    step after the first token, the sequences and the last step's logits."""
    c = model.c
    B, P = prompts.shape
    H, d = c["heads"], c["dModel"]
    dh, T = d // H, P + new_tokens
    inv_freq = c["ropeBase"] ** (-torch.arange(0, dh, 2, dtype=torch.float64) / dh)
    angle = torch.arange(T).double()[:, None] * inv_freq
    if c.get("rope") is False:
        angle = torch.zeros_like(angle)
    cos, sin = angle.cos().float(), angle.sin().float()
    cache = [(torch.empty(B, H, T, dh), torch.empty(B, H, T, dh)) for _ in model.blocks]

    places = c.get("places")
    last_place = torch.zeros(B, dtype=torch.long)  # the digit place of the last token so far

    def forward(tokens, at):  # tokens [B, n] at positions at … at + n − 1; logits of the last
        nonlocal last_place
        n = tokens.shape[1]
        cs, sn = cos[at : at + n], sin[at : at + n]
        mask = torch.arange(at + n)[None, :] <= torch.arange(at, at + n)[:, None]
        x = model.tok_emb(tokens)
        if places:  # a run of digits goes on from the last token's place
            if at == 0:
                p = digit_places(tokens, places)
            else:
                digit = (tokens >= places["firstDigit"]) & (tokens < places["firstDigit"] + 10)
                p = torch.where(digit, (last_place[:, None] + 1).clamp(max=places["maxPlace"]), 0)
            last_place = p[:, -1]
            x = x + model.place_emb(p)
        for block, (K, V) in zip(model.blocks, cache):
            q, k, v = block.attn["qkv"](block.ln1(x)).view(B, n, 3, H, dh).permute(2, 0, 3, 1, 4)
            K[:, :, at : at + n], V[:, :, at : at + n] = rope(k, cs, sn), v
            att = (rope(q, cs, sn) @ K[:, :, : at + n].transpose(-1, -2)) / math.sqrt(dh)
            att = att.masked_fill(~mask, float("-inf")).softmax(-1)
            y = (att @ V[:, :, : at + n]).transpose(1, 2).reshape(B, n, d)
            x = x + block.attn["proj"](y)
            x = x + block.mlp["proj"](F.gelu(block.mlp["fc"](block.ln2(x)), approximate="tanh"))
        return model.lm_head(model.ln_f(x[:, -1]))

    def draw(logits):
        return torch.multinomial(logits.softmax(-1), 1, generator=gen)

    seqs = torch.cat([prompts, draw(forward(prompts, 0))], 1)
    step_ms = []
    for at in range(P, T - 1):
        t0 = time.perf_counter()
        logits = forward(seqs[:, at : at + 1], at)
        seqs = torch.cat([seqs, draw(logits)], 1)
        step_ms.append((time.perf_counter() - t0) * 1000)
    return step_ms, seqs, logits


def bench_decoding(model, spec, min_seconds):
    """Decoding ms per step (the whole batch), as the bench times ours; None without a spec."""
    if spec is None:
        return None
    gen = torch.Generator().manual_seed(20)
    # Token ids from 2 as the bench's prompts (0 and 1 are padding and the start token).
    prompts = torch.randint(2, model.c["vocabSize"], (spec["B"], spec["promptLength"]), generator=gen)
    decode(model, prompts, 2, gen)  # warm-up, as ours
    times, t0 = [], time.perf_counter()
    while True:
        step_ms, seqs, logits = decode(model, prompts, spec["newTokens"], gen)
        times += step_ms
        if time.perf_counter() - t0 >= min_seconds:
            break
    # The cache is right when its last logits are the whole sequence's.
    with torch.no_grad():
        full = model(seqs[:, :-1])[:, -1]
    return {
        "msPerToken": sum(times) / len(times),
        "steps": len(times),
        "maxLogitDiff": (full - logits).abs().max().item(),
    }


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1].strip())
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
    tensors, meta, _ = read_safetensors(sys.argv[1])
    if meta.get("format") != FORMAT:
        sys.exit(f"{sys.argv[1]}: not a {FORMAT} checkpoint")
    config = json.loads(meta["config"])
    with open(sys.argv[2]) as f:
        job = json.load(f)
    B, T = job["B"], job["T"]

    model = Policy(config).float()
    # float32 → float64 → float32 is exact: these are the Node side's weights bit for bit.
    model.load_state_dict({n: t.float() for n, t in tensors.items()})
    named = dict(model.named_parameters())
    params = [named[n] for n in tensors]  # checkpoint order
    tokens = torch.tensor(job["tokens"], dtype=torch.long).view(B, T)
    targets = torch.tensor(job["targets"], dtype=torch.long).view(B, T, 1)
    weights = torch.tensor(job["weights"], dtype=torch.float32).view(B, T)
    opt = AdamW(params, [p.dim() >= 2 for p in params], job["optimizer"])

    def step():
        for p in params:
            p.grad = None
        logp = model(tokens).log_softmax(-1).gather(-1, targets)[..., 0]
        loss = -(weights * logp).sum()
        loss.backward()
        opt.update()
        return loss.item()

    loss = step()  # warm-up: allocations and first-call costs, not timed
    after, steps = None, 0
    t0 = time.perf_counter()
    while True:
        value = step()
        after = value if after is None else after
        steps += 1
        if time.perf_counter() - t0 >= job["minSeconds"]:
            break
    step_ms = (time.perf_counter() - t0) * 1000 / steps
    decoding = bench_decoding(model, job.get("decode"), job["minSeconds"])

    libs = loaded_blas()
    info = re.search(r"BLAS_INFO=(\w+)", torch.__config__.show())
    print(
        json.dumps(
            {
                "loss": loss,
                "lossAfterStep": after,
                "stepMs": step_ms,
                "steps": steps,
                "decoding": decoding,
                "torch": torch.__version__,
                "threads": torch.get_num_threads(),
                "blas": blas_name(libs),
                "blasLibraries": libs,
                "blasInfo": info.group(1) if info else None,
            }
        )
    )


if __name__ == "__main__":
    main()
