// Global gradient-norm clipping without a readback: each gradient tensor's sum of squares goes
// to its own slot (up to seven tensors per launch, one workgroup each), then one invocation turns
// the slots into the clip factor AdamW multiplies by.

struct Params { count: u32, first_slot: u32, max_norm: f32, _pad: u32, n: array<vec4u, 2> }

@group(0) @binding(0) var<uniform> p: Params;

@group(0) @binding(1) var<storage, read> x0: array<f32>;
@group(0) @binding(2) var<storage, read> x1: array<f32>;
@group(0) @binding(3) var<storage, read> x2: array<f32>;
@group(0) @binding(4) var<storage, read> x3: array<f32>;
@group(0) @binding(5) var<storage, read> x4: array<f32>;
@group(0) @binding(6) var<storage, read> x5: array<f32>;
@group(0) @binding(7) var<storage, read> x6: array<f32>;
@group(0) @binding(8) var<storage, read_write> partial: array<f32>;

var<workgroup> acc: array<f32, 256>;

// Element i of tensor t of this launch (WGSL cannot index bindings).
fn element(t: u32, i: u32) -> f32 {
  switch t {
    case 0u: { return x0[i]; }
    case 1u: { return x1[i]; }
    case 2u: { return x2[i]; }
    case 3u: { return x3[i]; }
    case 4u: { return x4[i]; }
    case 5u: { return x5[i]; }
    default: { return x6[i]; }
  }
}

@compute @workgroup_size(256)
fn sum_squares(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wg: vec3u) {
  let t = wg.x;
  if (t >= p.count) { return; }
  let n = p.n[t / 4u][t % 4u];
  var s = 0.0;
  for (var i = lid; i < n; i += 256u) { let v = element(t, i); s += v * v; }
  acc[lid] = s;
  workgroupBarrier();
  for (var w = 128u; w > 0u; w /= 2u) {
    if (lid < w) { acc[lid] += acc[lid + w]; }
    workgroupBarrier();
  }
  if (lid == 0u) { partial[p.first_slot + t] = acc[0]; }
}

// out[0] = clip factor min(1, max_norm / norm), out[1] = the global norm (a metric). A norm that
// is not finite (a NaN or infinite gradient) gives the factor −1: AdamW then skips the step. The
// test reads the exponent bits, since WGSL may assume floats are finite.
@group(0) @binding(1) var<storage, read> slots: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn clip_scale() {
  var total = 0.0;
  for (var i = 0u; i < p.count; i++) { total += slots[i]; }
  let norm = sqrt(total);
  let finite = (bitcast<u32>(norm) & 0x7f800000u) != 0x7f800000u;
  let factor = select(1.0, p.max_norm / (norm + 1e-6), p.max_norm > 0.0 && norm > p.max_norm);
  out[0] = select(-1.0, factor, finite);
  out[1] = norm;
}
