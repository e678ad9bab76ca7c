// Rotary position embedding (RoPE, half-split pairing as in GPT-NeoX/Llama), fused with the split
// of the QKV projection into head-major tensors.
// Forward: qkv [B, Tq, 3·d] → q [B, H, Tq, dh] (rotated), and k (rotated), v written into caches
// [B, H, cap, dh] at column qOffset + t. Sequences are left-padded: start[b] is the column of
// the first real token, so a token's position is its column minus start[b].
// cos/sin come from a table computed once on the host: GPU sin/cos lose precision for large
// angles, and the table makes the CPU twin bit-for-bit the same input.

struct Params {
  B: u32, Tq: u32, H: u32, dh: u32,
  cap: u32, q_offset: u32, table_len: u32, _pad: u32,
}

@group(0) @binding(0) var<uniform> p: Params;

@group(0) @binding(1) var<storage, read> qkv: array<f32>;
@group(0) @binding(2) var<storage, read> start: array<u32>;
@group(0) @binding(3) var<storage, read> table: array<f32>;  // [table_len, dh/2, 2]: cos, sin
@group(0) @binding(4) var<storage, read_write> q: array<f32>;
@group(0) @binding(5) var<storage, read_write> kc: array<f32>;
@group(0) @binding(6) var<storage, read_write> vc: array<f32>;

fn position(b: u32, col: u32, starts: u32) -> u32 {
  return min(select(0u, col - starts, col >= starts), p.table_len - 1u);
}

@compute @workgroup_size(64)
fn rope_forward(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let half = p.dh / 2u;
  let idx = gid.x + gid.y * nwg.x * 64u;
  if (idx >= p.B * p.Tq * p.H * half) { return; }
  let i = idx % half;
  let h = (idx / half) % p.H;
  let t = (idx / (half * p.H)) % p.Tq;
  let b = idx / (half * p.H * p.Tq);
  let d = p.H * p.dh;
  let col = p.q_offset + t;
  let pos = position(b, col, start[b]);
  let c = table[(pos * half + i) * 2u];
  let s = table[(pos * half + i) * 2u + 1u];
  let row = (b * p.Tq + t) * 3u * d + h * p.dh;
  let q1 = qkv[row + i];
  let q2 = qkv[row + i + half];
  let k1 = qkv[row + d + i];
  let k2 = qkv[row + d + i + half];
  let qo = ((b * p.H + h) * p.Tq + t) * p.dh;
  q[qo + i] = q1 * c - q2 * s;
  q[qo + i + half] = q1 * s + q2 * c;
  let ko = ((b * p.H + h) * p.cap + col) * p.dh;
  kc[ko + i] = k1 * c - k2 * s;
  kc[ko + i + half] = k1 * s + k2 * c;
  vc[ko + i] = qkv[row + 2u * d + i];
  vc[ko + i + half] = qkv[row + 2u * d + i + half];
}

// Backward (training layout: cap = Tq, q_offset = 0): dq, dk, dv [B, H, T, dh] → dqkv [B, T, 3·d],
// rotating q and k gradients back by −θ.
@group(0) @binding(1) var<storage, read> dq: array<f32>;
@group(0) @binding(2) var<storage, read> dk: array<f32>;
@group(0) @binding(3) var<storage, read> dv: array<f32>;
@group(0) @binding(4) var<storage, read> bstart: array<u32>;
@group(0) @binding(5) var<storage, read> btable: array<f32>;
@group(0) @binding(6) var<storage, read_write> dqkv: array<f32>;

@compute @workgroup_size(64)
fn rope_backward(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let half = p.dh / 2u;
  let idx = gid.x + gid.y * nwg.x * 64u;
  if (idx >= p.B * p.Tq * p.H * half) { return; }
  let i = idx % half;
  let h = (idx / half) % p.H;
  let t = (idx / (half * p.H)) % p.Tq;
  let b = idx / (half * p.H * p.Tq);
  let d = p.H * p.dh;
  let pos = min(select(0u, t - bstart[b], t >= bstart[b]), p.table_len - 1u);
  let c = btable[(pos * half + i) * 2u];
  let s = btable[(pos * half + i) * 2u + 1u];
  let o = ((b * p.H + h) * p.Tq + t) * p.dh;
  let row = (b * p.Tq + t) * 3u * d + h * p.dh;
  dqkv[row + i] = dq[o + i] * c + dq[o + i + half] * s;
  dqkv[row + i + half] = -dq[o + i] * s + dq[o + i + half] * c;
  dqkv[row + d + i] = dk[o + i] * c + dk[o + i + half] * s;
  dqkv[row + d + i + half] = -dk[o + i] * s + dk[o + i + half] * c;
  dqkv[row + 2u * d + i] = dv[o + i];
  dqkv[row + 2u * d + i + half] = dv[o + i + half];
}
