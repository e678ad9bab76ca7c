// Token embedding: gather rows of the table, and the gradient's scatter-add back into it.
// WGSL has no float atomics, so the backward runs one invocation per (vocab row, channel) that
// sums the matching tokens' gradients: deterministic, and cheap for a char-level vocabulary.

struct Params { n: u32, dim: u32, vocab: u32, _pad: u32 }

@group(0) @binding(0) var<uniform> p: Params;

// forward: out[t, c] = table[tokens[t], c]
@group(0) @binding(1) var<storage, read> tokens: array<u32>;
@group(0) @binding(2) var<storage, read> table: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(256)
fn embedding_forward(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * 256u;
  if (i >= p.n * p.dim) { return; }
  let t = i / p.dim;
  let c = i % p.dim;
  out[i] = table[min(tokens[t], p.vocab - 1u) * p.dim + c];
}

// backward: dtable[v, c] (+)= Σ_{t: tokens[t] = v} dout[t, c]
@group(0) @binding(1) var<storage, read> btokens: array<u32>;
@group(0) @binding(2) var<storage, read> dout: array<f32>;
@group(0) @binding(3) var<storage, read_write> dtable: array<f32>;

override ACCUMULATE: bool = false;

@compute @workgroup_size(256)
fn embedding_backward(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * 256u;
  if (i >= p.vocab * p.dim) { return; }
  let v = i / p.dim;
  let c = i % p.dim;
  var s = 0.0;
  for (var t = 0u; t < p.n; t++) {
    if (btokens[t] == v) { s += dout[t * p.dim + c]; }
  }
  if (ACCUMULATE) { s += dtable[i]; }
  dtable[i] = s;
}
