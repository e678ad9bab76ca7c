// Log-softmax over the vocabulary with the log-probability of given target tokens, and the
// gradient of a token-weighted negative log-likelihood L = −Σ_n w_n·log p(target_n).
// The weights carry the training signal: 1 on answer tokens for supervised warm-up, per-token
// advantages for RL, 0 on prompt, hint and padding tokens.

struct Params { rows: u32, vocab: u32, _pad0: u32, _pad1: u32 }

@group(0) @binding(0) var<uniform> p: Params;

// forward: per row, logp[n] = logits[n, target[n]] − lse[n]; entropy[n] = −Σ_v p_v log p_v.
@group(0) @binding(1) var<storage, read> logits: array<f32>;
@group(0) @binding(2) var<storage, read> targets: array<u32>;
@group(0) @binding(3) var<storage, read_write> logp: array<f32>;
@group(0) @binding(4) var<storage, read_write> lse: array<f32>;
@group(0) @binding(5) var<storage, read_write> entropy: array<f32>;

@compute @workgroup_size(64)
fn logsoftmax_forward(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let n = gid.x + gid.y * nwg.x * 64u;
  if (n >= p.rows) { return; }
  let o = n * p.vocab;
  var m = -3.4028234663852886e38;
  for (var v = 0u; v < p.vocab; v++) { m = max(m, logits[o + v]); }
  var z = 0.0;
  var zl = 0.0;
  for (var v = 0u; v < p.vocab; v++) {
    let e = exp(logits[o + v] - m);
    z += e;
    zl += e * logits[o + v];
  }
  let l = m + log(z);
  lse[n] = l;
  logp[n] = logits[o + min(targets[n], p.vocab - 1u)] - l;
  entropy[n] = l - zl / z;
}

// backward: dlogits[n, v] = w[n]·(softmax(logits[n])_v − [v = target[n]])
@group(0) @binding(1) var<storage, read> blogits: array<f32>;
@group(0) @binding(2) var<storage, read> btargets: array<u32>;
@group(0) @binding(3) var<storage, read> blse: array<f32>;
@group(0) @binding(4) var<storage, read> weights: array<f32>;
@group(0) @binding(5) var<storage, read_write> dlogits: array<f32>;

@compute @workgroup_size(256)
fn logsoftmax_backward(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * 256u;
  if (i >= p.rows * p.vocab) { return; }
  let n = i / p.vocab;
  let v = i % p.vocab;
  let prob = exp(blogits[i] - blse[n]);
  let hit = select(0.0, 1.0, btargets[n] == v);
  dlogits[i] = weights[n] * (prob - hit);
}
