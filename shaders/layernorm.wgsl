// LayerNorm over the last dimension: y = (x − mean)·rstd·gamma + beta.
// Forward saves mean and rstd per row for the backward. Rows are short (d_model ≤ 256), so one
// invocation per row; the parameter gradients take one invocation per channel over all rows.

struct Params { rows: u32, dim: u32, eps: f32, _pad: u32 }

@group(0) @binding(0) var<uniform> p: Params;

override ACCUMULATE: bool = false;

@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> gamma: array<f32>;
@group(0) @binding(3) var<storage, read> beta: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<f32>;
@group(0) @binding(5) var<storage, read_write> mean: array<f32>;
@group(0) @binding(6) var<storage, read_write> rstd: array<f32>;

fn flat(gid: vec3u, nwg: vec3u) -> u32 { return gid.x + gid.y * nwg.x * 64u; }

@compute @workgroup_size(64)
fn layernorm_forward(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let r = flat(gid, nwg);
  if (r >= p.rows) { return; }
  let o = r * p.dim;
  var m = 0.0;
  for (var c = 0u; c < p.dim; c++) { m += x[o + c]; }
  m /= f32(p.dim);
  var v = 0.0;
  for (var c = 0u; c < p.dim; c++) { let d = x[o + c] - m; v += d * d; }
  let s = inverseSqrt(v / f32(p.dim) + p.eps);
  for (var c = 0u; c < p.dim; c++) { y[o + c] = (x[o + c] - m) * s * gamma[c] + beta[c]; }
  mean[r] = m;
  rstd[r] = s;
}

// dx (+)= rstd·(dxhat − mean(dxhat) − xhat·mean(dxhat·xhat)), dxhat = dy·gamma
@group(0) @binding(1) var<storage, read> bx: array<f32>;
@group(0) @binding(2) var<storage, read> bgamma: array<f32>;
@group(0) @binding(3) var<storage, read> bmean: array<f32>;
@group(0) @binding(4) var<storage, read> brstd: array<f32>;
@group(0) @binding(5) var<storage, read> dy: array<f32>;
@group(0) @binding(6) var<storage, read_write> dx: array<f32>;

@compute @workgroup_size(64)
fn layernorm_backward_input(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let r = flat(gid, nwg);
  if (r >= p.rows) { return; }
  let o = r * p.dim;
  let m = bmean[r];
  let s = brstd[r];
  var sum_dxhat = 0.0;
  var sum_dxhat_xhat = 0.0;
  for (var c = 0u; c < p.dim; c++) {
    let dxhat = dy[o + c] * bgamma[c];
    sum_dxhat += dxhat;
    sum_dxhat_xhat += dxhat * (bx[o + c] - m) * s;
  }
  let mean_dxhat = sum_dxhat / f32(p.dim);
  let mean_dxhat_xhat = sum_dxhat_xhat / f32(p.dim);
  for (var c = 0u; c < p.dim; c++) {
    let xhat = (bx[o + c] - m) * s;
    var g = s * (dy[o + c] * bgamma[c] - mean_dxhat - xhat * mean_dxhat_xhat);
    if (ACCUMULATE) { g += dx[o + c]; }
    dx[o + c] = g;
  }
}

// dgamma[c] (+)= Σ_r dy·xhat, dbeta[c] (+)= Σ_r dy
@group(0) @binding(1) var<storage, read> px: array<f32>;
@group(0) @binding(2) var<storage, read> pmean: array<f32>;
@group(0) @binding(3) var<storage, read> prstd: array<f32>;
@group(0) @binding(4) var<storage, read> pdy: array<f32>;
@group(0) @binding(5) var<storage, read_write> dgamma: array<f32>;
@group(0) @binding(6) var<storage, read_write> dbeta: array<f32>;

@compute @workgroup_size(64)
fn layernorm_backward_params(@builtin(global_invocation_id) gid: vec3u) {
  let c = gid.x;
  if (c >= p.dim) { return; }
  var sg = 0.0;
  var sb = 0.0;
  for (var r = 0u; r < p.rows; r++) {
    let g = pdy[r * p.dim + c];
    sg += g * (px[r * p.dim + c] - pmean[r]) * prstd[r];
    sb += g;
  }
  if (ACCUMULATE) {
    sg += dgamma[c];
    sb += dbeta[c];
  }
  dgamma[c] = sg;
  dbeta[c] = sb;
}
