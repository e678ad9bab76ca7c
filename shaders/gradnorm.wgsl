// Global gradient-norm clipping without a readback: each gradient tensor's sum of squares goes
// to its own slot, then one invocation turns the slots into the clip factor AdamW multiplies by.

struct Params { n: u32, slot: u32, max_norm: f32, _pad: u32 }

@group(0) @binding(0) var<uniform> p: Params;

@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> partial: array<f32>;

var<workgroup> acc: array<f32, 256>;

@compute @workgroup_size(256)
fn sum_squares(@builtin(local_invocation_index) lid: u32) {
  var s = 0.0;
  for (var i = lid; i < p.n; i += 256u) { s += x[i] * x[i]; }
  acc[lid] = s;
  workgroupBarrier();
  for (var w = 128u; w > 0u; w /= 2u) {
    if (lid < w) { acc[lid] += acc[lid + w]; }
    workgroupBarrier();
  }
  if (lid == 0u) { partial[p.slot] = acc[0]; }
}

// out[0] = clip factor min(1, max_norm / norm), out[1] = the global norm (a metric). A norm that
// is not finite (a NaN or infinite gradient) gives the factor −1: AdamW then skips the step. The
// test reads the exponent bits, since WGSL may assume floats are finite.
@group(0) @binding(1) var<storage, read> slots: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn clip_scale() {
  var total = 0.0;
  for (var i = 0u; i < p.n; i++) { total += slots[i]; }
  let norm = sqrt(total);
  let finite = (bitcast<u32>(norm) & 0x7f800000u) != 0x7f800000u;
  let factor = select(1.0, p.max_norm / (norm + 1e-6), p.max_norm > 0.0 && norm > p.max_norm);
  out[0] = select(-1.0, factor, finite);
  out[1] = norm;
}
