#!/usr/bin/env python3
"""PyTorch reference of the policy: the golden outputs the TypeScript engine is tested against.

    python3 scripts/torch_reference.py CHECKPOINT TEXT [--steps N] [--lr LR] [--grads]

prints one JSON object for one sequence: its tokens, the loss (mean next-token negative
log-likelihood), the logits at every position ([T][V]), the L2 norm of every parameter's
gradient (by tensor name, in checkpoint order) and a few sampled gradient entries, every full
gradient with --grads, and the loss after each of N AdamW steps on that same sequence. The text
is encoded one character per token and the begin token `^` is prepended unless the text starts
with it, as `npm run model -- forward` does.

All of it runs in float64, so the golden is the exact math of the model and the optimizer and
the float32 engine is judged against it. The AdamW update mirrors src/model/optimizer.ts and
src/engine/kernels/{adamw,gradnorm}.ts: the global gradient norm over all tensors, a clip factor
maxGradNorm / (norm + 1e-6) when the norm exceeds maxGradNorm, moments of the clipped gradient,
bias corrections 1 − β^step, eps added outside the square root, and weight decay decoupled and
scaled by the learning rate, on matrices only (the tensors with two dimensions). The
hyperparameters are rounded to float32 first because the engine's kernels receive them so.

scripts/torch_bench.py imports the module and AdamW from here (in float32) to time the training
step of `npm run bench -- --peers` on the same maths.

Needs only torch and the standard library (Debian: apt-get install python3-torch, then run with
/usr/bin/python3); the safetensors file is read here. Every printed number is rounded to nine
significant digits.
"""

import argparse
import hashlib
import json
import math
import struct
import sys
from array import array

import torch
import torch.nn.functional as F

VOCAB = "~^.0123456789abcdefghijklmnopqrstuvwxyz+-*|=>,_#"  # token id = index
BOS = 1
FORMAT = "mentor-playground/transformer@1"
# DEFAULT_OPTIMIZER of src/model/optimizer.ts.
OPTIMIZER = {
    "lr": 1e-3,
    "beta1": 0.9,
    "beta2": 0.999,
    "eps": 1e-8,
    "weightDecay": 0.01,
    "maxGradNorm": 1.0,
}
SAMPLES = 8  # gradient entries kept per tensor: the largest and evenly spaced ones


def read_safetensors(path):
    """Tensors (float64, in file order), metadata and the SHA-256 of the file's bytes."""
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    metadata = header.pop("__metadata__", {})
    data = raw[8 + n :]
    tensors = {}
    for name, e in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"][0]):
        if e["dtype"] != "F32":
            sys.exit(f"{path}: tensor {name} is {e['dtype']}, expected F32")
        begin, end = e["data_offsets"]
        values = array("f", data[begin:end])
        if sys.byteorder != "little":
            values.byteswap()
        shape = e["shape"]
        tensors[name] = torch.tensor(values, dtype=torch.float64).reshape(shape)
    return tensors, metadata, hashlib.sha256(raw).hexdigest()


def rope(x, cos, sin):  # x [B, H, T, dh]; dimensions i and i + dh/2 form a pair
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)


def digit_places(tokens, p):  # the k-th digit of a run of digits has place k (capped), others 0
    digit = (tokens >= p["firstDigit"]) & (tokens < p["firstDigit"] + 10)
    places = torch.zeros_like(tokens)
    for t in range(tokens.shape[1]):
        prev = places[:, t - 1] if t > 0 else torch.zeros_like(tokens[:, 0])
        places[:, t] = torch.where(digit[:, t], (prev + 1).clamp(max=p["maxPlace"]), 0)
    return places


class Block(torch.nn.Module):
    def __init__(self, c):
        super().__init__()
        d, f = c["dModel"], c["mlpRatio"] * c["dModel"]
        self.heads = c["heads"]
        self.ln1, self.ln2 = torch.nn.LayerNorm(d), torch.nn.LayerNorm(d)  # eps 1e-5
        Linear = torch.nn.Linear  # weight [out, in], as in the checkpoint
        self.attn = torch.nn.ModuleDict({"qkv": Linear(d, 3 * d), "proj": Linear(d, d)})
        self.mlp = torch.nn.ModuleDict({"fc": Linear(d, f), "proj": Linear(f, d)})

    def forward(self, x, cos, sin, mask):
        B, T, d = x.shape
        H, dh = self.heads, d // self.heads
        q, k, v = self.attn["qkv"](self.ln1(x)).view(B, T, 3, H, dh).permute(2, 0, 3, 1, 4)
        att = (rope(q, cos, sin) @ rope(k, cos, sin).transpose(-1, -2)) / math.sqrt(dh)
        att = att.masked_fill(~mask, float("-inf")).softmax(-1)
        x = x + self.attn["proj"]((att @ v).transpose(1, 2).reshape(B, T, d))
        return x + self.mlp["proj"](F.gelu(self.mlp["fc"](self.ln2(x)), approximate="tanh"))


class Policy(torch.nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        self.tok_emb = torch.nn.Embedding(c["vocabSize"], c["dModel"])
        if c.get("places"):  # digit-place option (the shipped arithmetic base has it)
            self.place_emb = torch.nn.Embedding(c["places"]["maxPlace"] + 1, c["dModel"])
        self.blocks = torch.nn.ModuleList(Block(c) for _ in range(c["layers"]))
        self.ln_f = torch.nn.LayerNorm(c["dModel"])
        self.lm_head = torch.nn.Linear(c["dModel"], c["vocabSize"], bias=False)

    def forward(self, tokens):  # tokens [B, T]: unpadded sequences
        T, dh = tokens.shape[1], self.c["dModel"] // self.c["heads"]
        t = torch.arange(T)
        inv_freq = self.c["ropeBase"] ** (-torch.arange(0, dh, 2, dtype=torch.float64) / dh)
        angle = t.double()[:, None] * inv_freq  # [T, dh/2]
        if self.c.get("rope") is False:  # NoPE: the rotation is the identity
            angle = torch.zeros_like(angle)
        # Angles in float64, cos/sin in the model's dtype (as the engine's float32 table).
        dtype = self.tok_emb.weight.dtype
        cos, sin = angle.cos().to(dtype), angle.sin().to(dtype)
        mask = t[None, :] <= t[:, None]
        x = self.tok_emb(tokens)
        if self.c.get("places"):
            x = x + self.place_emb(digit_places(tokens, self.c["places"]))
        for block in self.blocks:
            x = block(x, cos, sin, mask)
        return self.lm_head(self.ln_f(x))


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


class AdamW:
    """The engine's AdamW with global grad-norm clipping (see the module docstring)."""

    def __init__(self, params, decay, o):
        self.params, self.decay, self.o, self.step = params, decay, o, 0
        self.m = [torch.zeros_like(p) for p in params]
        self.v = [torch.zeros_like(p) for p in params]

    @torch.no_grad()
    def update(self):
        o = self.o
        self.step += 1
        norm = math.sqrt(sum(float((p.grad**2).sum()) for p in self.params))
        clip = o["maxGradNorm"]
        scale = f32(clip) / (norm + 1e-6) if clip > 0 and norm > clip else 1.0
        b1, b2, lr, eps = f32(o["beta1"]), f32(o["beta2"]), f32(o["lr"]), f32(o["eps"])
        bc1 = f32(1 - o["beta1"] ** self.step)
        bc2 = f32(1 - o["beta2"] ** self.step)
        for p, m, v, decay in zip(self.params, self.m, self.v, self.decay):
            g = p.grad * scale
            m.mul_(b1).add_((1 - b1) * g)
            v.mul_(b2).add_((1 - b2) * g * g)
            wd = f32(o["weightDecay"]) if decay else 0.0
            p.sub_(lr * (m / bc1 / ((v / bc2).sqrt() + eps) + wd * p))
        return norm


def encode(text):
    body = text[1:] if text.startswith(VOCAB[BOS]) else text
    bad = [ch for ch in body if ch not in VOCAB]
    if bad:
        sys.exit(f"character {bad[0]!r} is not in the vocabulary {VOCAB}")
    return [BOS] + [VOCAB.index(ch) for ch in body]


def rounded(x):
    """Nine significant digits: enough for float32, small files."""
    if isinstance(x, torch.Tensor):
        x = x.tolist()
    if isinstance(x, list):
        return [rounded(v) for v in x]
    return float(f"{x:.9g}")


def grad_samples(g):
    """The SAMPLES largest-magnitude entries (well conditioned) and SAMPLES evenly spaced ones."""
    flat = g.flatten()
    n = flat.numel()
    largest = flat.abs().topk(min(SAMPLES, n)).indices.tolist()
    spaced = [round(k * (n - 1) / (SAMPLES - 1)) for k in range(SAMPLES)]
    index = sorted(set(largest) | set(spaced))
    return {"index": index, "value": rounded(flat[index])}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkpoint")
    ap.add_argument("text")
    ap.add_argument("--steps", type=int, default=5, help="AdamW steps (default 5)")
    ap.add_argument("--lr", type=float, default=OPTIMIZER["lr"], help="learning rate (1e-3)")
    ap.add_argument("--grads", action="store_true", help="also print every full gradient")
    ap.add_argument(
        "--max-grad-norm",
        type=float,
        default=OPTIMIZER["maxGradNorm"],
        help="global gradient-norm clip (default 1; 0 = none)",
    )
    args = ap.parse_args()

    tensors, meta, sha = read_safetensors(args.checkpoint)
    if meta.get("format") != FORMAT:
        sys.exit(f"{args.checkpoint}: not a {FORMAT} checkpoint")
    config = json.loads(meta["config"])
    tokens = encode(args.text)
    if not 2 <= len(tokens) <= config["contextLength"]:
        sys.exit(f"{len(tokens)} tokens: need 2 to {config['contextLength']} (begin included)")

    model = Policy(config).double()
    model.load_state_dict(tensors)  # strict: every name and shape must match
    named = dict(model.named_parameters())
    names = list(tensors)  # checkpoint order
    params = [named[n] for n in names]
    ids = torch.tensor([tokens])

    def loss_of(logits):
        return F.cross_entropy(logits[0, :-1], ids[0, 1:])  # mean next-token NLL

    logits = model(ids)
    loss = loss_of(logits)
    loss.backward()
    grads = {n: p.grad.clone() for n, p in zip(names, params)}

    optimizer = {**OPTIMIZER, "lr": args.lr, "maxGradNorm": args.max_grad_norm}
    opt = AdamW(params, [p.dim() >= 2 for p in params], optimizer)
    step_norms, losses = [], []
    for _ in range(args.steps):
        step_norms.append(opt.update())
        for p in params:
            p.grad = None
        after = loss_of(model(ids))
        losses.append(after.item())
        after.backward()

    out = {
        "generator": "scripts/torch_reference.py",
        "dtype": "float64",
        "checkpoint": args.checkpoint,
        "sha256": sha,
        "config": config,
        "text": VOCAB[BOS] + "".join(VOCAB[i] for i in tokens[1:]),
        "tokens": tokens,
        "loss": rounded(loss.item()),
        "logits": rounded(logits[0]),
        "gradNorms": {n: rounded(g.norm().item()) for n, g in grads.items()},
        "gradSamples": {n: grad_samples(g) for n, g in grads.items()},
        "optimizer": optimizer,
        "steps": args.steps,
        "stepGradNorms": rounded(step_norms),
        "lossesAfterSteps": rounded(losses),
    }
    if args.grads:
        out["grads"] = {n: rounded(g.flatten()) for n, g in grads.items()}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
