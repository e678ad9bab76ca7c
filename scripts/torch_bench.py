#!/usr/bin/env python3
"""The bench's training step in PyTorch, for `npm run bench -- --peers`.

    /usr/bin/python3 scripts/torch_bench.py WEIGHTS.safetensors BATCH.json

WEIGHTS is a checkpoint (the model config in its metadata); BATCH.json holds B, T, tokens and
targets (B·T ids each, row-major, unpadded), the per-row loss weights, the optimizer and
minSeconds. It runs the module and AdamW of torch_reference.py in float32 on one thread: one
untimed warm-up step, then steps until minSeconds have passed; a step is the forward pass with
L = −Σ w·log p(target), the backward pass and the AdamW update. Prints one JSON object: the loss
of the first two steps (before and after one update), the mean step time in ms, the torch version
and the BLAS library this process loaded (torch links libblas.so.3; the system's alternative or
LD_LIBRARY_PATH decides which file that is).
"""

import json
import os
import re
import sys
import time

import torch

from torch_reference import FORMAT, AdamW, Policy, read_safetensors


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


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1].strip())
    torch.set_num_threads(1)
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

    libs = loaded_blas()
    info = re.search(r"BLAS_INFO=(\w+)", torch.__config__.show())
    print(
        json.dumps(
            {
                "loss": loss,
                "lossAfterStep": after,
                "stepMs": step_ms,
                "steps": steps,
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
