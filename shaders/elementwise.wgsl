// Elementwise kernels over flat buffers: out = alpha·a + beta·b (+ out), out = a ⊙ b, fill.
// Residual connections, scaling and loss gradients are all built from these.

struct Params { n: u32, alpha: f32, beta: f32, _pad: u32 }

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

override ACCUMULATE: bool = false;

fn flat(gid: vec3u, nwg: vec3u) -> u32 { return gid.x + gid.y * nwg.x * 256u; }

@compute @workgroup_size(256)
fn axpby(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flat(gid, nwg);
  if (i >= p.n) { return; }
  var v = p.alpha * a[i] + p.beta * b[i];
  if (ACCUMULATE) { v += out[i]; }
  out[i] = v;
}

@compute @workgroup_size(256)
fn mul(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flat(gid, nwg);
  if (i >= p.n) { return; }
  var v = p.alpha * a[i] * b[i];
  if (ACCUMULATE) { v += out[i]; }
  out[i] = v;
}
