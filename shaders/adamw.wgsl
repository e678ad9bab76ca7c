// AdamW with decoupled weight decay (Loshchilov & Hutter), one invocation per parameter.
// The gradient is multiplied by gscale[0] first: global grad-norm clipping writes its factor
// there on the device, so clipping needs no readback. A negative factor marks a step whose
// gradient was not finite: nothing changes, parameters and moments alike.

struct Params {
  n: u32, lr: f32, beta1: f32, beta2: f32,
  eps: f32, weight_decay: f32, bias_correction1: f32, bias_correction2: f32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> grad: array<f32>;
@group(0) @binding(2) var<storage, read> gscale: array<f32>;
@group(0) @binding(3) var<storage, read_write> param: array<f32>;
@group(0) @binding(4) var<storage, read_write> m: array<f32>;
@group(0) @binding(5) var<storage, read_write> v: array<f32>;

@compute @workgroup_size(256)
fn adamw(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * 256u;
  if (i >= p.n || gscale[0] < 0.0) { return; }
  let g = grad[i] * gscale[0];
  let mi = p.beta1 * m[i] + (1.0 - p.beta1) * g;
  let vi = p.beta2 * v[i] + (1.0 - p.beta2) * g * g;
  m[i] = mi;
  v[i] = vi;
  let mhat = mi / p.bias_correction1;
  let vhat = vi / p.bias_correction2;
  let w = param[i];
  param[i] = w - p.lr * (mhat / (sqrt(vhat) + p.eps) + p.weight_decay * w);
}
