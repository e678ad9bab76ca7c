// Causal multi-head self-attention over left-padded sequences, forward and backward.
// q [B, H, Tq, dh]; K/V caches [B, H, cap, dh]; out [B, Tq, H·dh] (token-major, ready for the
// output projection). Query row t sits at cache column q_offset + t and sees the keys in
// [start[b], q_offset + t]: causal, and blind to the left padding. One kernel serves training
// (Tq = cap = T), prefill and KV-cache decoding (Tq = 1).
// The forward is one pass of online softmax per query row; training also stores the attention
// probabilities, which the backward reads.

struct Params {
  B: u32, Tq: u32, H: u32, dh: u32,
  cap: u32, q_offset: u32, scale: f32, _pad: u32,
}

const MAX_DH: u32 = 64u;

@group(0) @binding(0) var<uniform> p: Params;

override STORE_PROBS: bool = false;

@group(0) @binding(1) var<storage, read> q: array<f32>;
@group(0) @binding(2) var<storage, read> kc: array<f32>;
@group(0) @binding(3) var<storage, read> vc: array<f32>;
@group(0) @binding(4) var<storage, read> start: array<u32>;
@group(0) @binding(5) var<storage, read_write> out: array<f32>;
@group(0) @binding(6) var<storage, read_write> probs: array<f32>;  // [B, H, Tq, cap]

fn row_of(gid: vec3u, nwg: vec3u) -> u32 { return gid.x + gid.y * nwg.x * 64u; }

@compute @workgroup_size(64)
fn attention_forward(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let r = row_of(gid, nwg);
  if (r >= p.B * p.H * p.Tq) { return; }
  let t = r % p.Tq;
  let h = (r / p.Tq) % p.H;
  let b = r / (p.Tq * p.H);
  let qo = r * p.dh;
  let kv = (b * p.H + h) * p.cap;
  let first = start[b];
  let last = p.q_offset + t;  // inclusive

  var m = -3.4028234663852886e38;
  var l = 0.0;
  var acc: array<f32, MAX_DH>;
  for (var j = first; j <= last; j++) {
    var s = 0.0;
    for (var c = 0u; c < p.dh; c++) { s += q[qo + c] * kc[(kv + j) * p.dh + c]; }
    s *= p.scale;
    let m_new = max(m, s);
    let correction = exp(m - m_new);
    let w = exp(s - m_new);
    l = l * correction + w;
    for (var c = 0u; c < p.dh; c++) { acc[c] = acc[c] * correction + w * vc[(kv + j) * p.dh + c]; }
    m = m_new;
  }
  let d = p.H * p.dh;
  let o = (b * p.Tq + t) * d + h * p.dh;
  let inv = select(0.0, 1.0 / l, l > 0.0);
  for (var c = 0u; c < p.dh; c++) { out[o + c] = acc[c] * inv; }

  if (STORE_PROBS) {
    let po = r * p.cap;
    for (var j = 0u; j < p.cap; j++) {
      var pr = 0.0;
      if (j >= first && j <= last) {
        var s = 0.0;
        for (var c = 0u; c < p.dh; c++) { s += q[qo + c] * kc[(kv + j) * p.dh + c]; }
        pr = exp(s * p.scale - m) * inv;
      }
      probs[po + j] = pr;
    }
  }
}

// Backward, training layout (Tq = cap = T, q_offset = 0). With D_i = dout_i·out_i and
// dS_ij = P_ij (dout_i·v_j − D_i): dq_i = scale·Σ_j dS_ij k_j, dk_j = scale·Σ_i dS_ij q_i,
// dv_j = Σ_i P_ij dout_i. Two kernels: one per query row (dq), one per key row (dk, dv), so every
// output is written by exactly one invocation.
// Bindings 2–5 are shared by both backward kernels; 1 is k for dq and q for dk/dv.
@group(0) @binding(1) var<storage, read> bk: array<f32>;
@group(0) @binding(2) var<storage, read> bv: array<f32>;
@group(0) @binding(3) var<storage, read> bprobs: array<f32>;
@group(0) @binding(4) var<storage, read> bout: array<f32>;
@group(0) @binding(5) var<storage, read> dout: array<f32>;
@group(0) @binding(6) var<storage, read_write> dq: array<f32>;

fn d_row(b: u32, h: u32, i: u32) -> f32 {
  let o = (b * p.Tq + i) * p.H * p.dh + h * p.dh;
  var s = 0.0;
  for (var c = 0u; c < p.dh; c++) { s += dout[o + c] * bout[o + c]; }
  return s;
}

fn dp(b: u32, h: u32, i: u32, j: u32) -> f32 {
  let o = (b * p.Tq + i) * p.H * p.dh + h * p.dh;
  let vo = ((b * p.H + h) * p.Tq + j) * p.dh;
  var s = 0.0;
  for (var c = 0u; c < p.dh; c++) { s += dout[o + c] * bv[vo + c]; }
  return s;
}

@compute @workgroup_size(64)
fn attention_backward_q(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let r = row_of(gid, nwg);
  if (r >= p.B * p.H * p.Tq) { return; }
  let i = r % p.Tq;
  let h = (r / p.Tq) % p.H;
  let b = r / (p.Tq * p.H);
  let di = d_row(b, h, i);
  var acc: array<f32, MAX_DH>;
  for (var j = 0u; j <= i; j++) {
    let pij = bprobs[r * p.Tq + j];
    if (pij == 0.0) { continue; }
    let ds = pij * (dp(b, h, i, j) - di);
    let ko = ((b * p.H + h) * p.Tq + j) * p.dh;
    for (var c = 0u; c < p.dh; c++) { acc[c] += ds * bk[ko + c]; }
  }
  for (var c = 0u; c < p.dh; c++) { dq[r * p.dh + c] = acc[c] * p.scale; }
}

@group(0) @binding(1) var<storage, read> bq: array<f32>;
@group(0) @binding(6) var<storage, read_write> dk: array<f32>;
@group(0) @binding(7) var<storage, read_write> dv: array<f32>;

@compute @workgroup_size(64)
fn attention_backward_kv(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let r = row_of(gid, nwg);
  if (r >= p.B * p.H * p.Tq) { return; }
  let j = r % p.Tq;
  let h = (r / p.Tq) % p.H;
  let b = r / (p.Tq * p.H);
  var accK: array<f32, MAX_DH>;
  var accV: array<f32, MAX_DH>;
  for (var i = j; i < p.Tq; i++) {
    let qrow = (b * p.H + h) * p.Tq + i;
    let pij = bprobs[qrow * p.Tq + j];
    if (pij == 0.0) { continue; }
    let ds = pij * (dp(b, h, i, j) - d_row(b, h, i));
    let o = (b * p.Tq + i) * p.H * p.dh + h * p.dh;
    for (var c = 0u; c < p.dh; c++) {
      accK[c] += ds * bq[qrow * p.dh + c];
      accV[c] += pij * dout[o + c];
    }
  }
  for (var c = 0u; c < p.dh; c++) {
    dk[r * p.dh + c] = accK[c] * p.scale;
    dv[r * p.dh + c] = accV[c];
  }
}
