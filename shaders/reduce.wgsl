// Reductions over a [rows, cols] matrix.
// row_sum / row_max: one workgroup per row, a strided pass then a tree in workgroup memory.
// col_sum: one invocation per column (bias gradients: rows are tokens, few enough to loop).

struct Params { rows: u32, cols: u32, _pad0: u32, _pad1: u32 }

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

override ACCUMULATE: bool = false;

const WG: u32 = 256u;
var<workgroup> partial: array<f32, 256>;

fn row_index(wid: vec3u, nwg: vec3u) -> u32 { return wid.x + wid.y * nwg.x; }

@compute @workgroup_size(256)
fn row_sum(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
           @builtin(local_invocation_index) lid: u32) {
  let row = row_index(wid, nwg);
  var s = 0.0;
  if (row < p.rows) {
    for (var j = lid; j < p.cols; j += WG) { s += x[row * p.cols + j]; }
  }
  partial[lid] = s;
  workgroupBarrier();
  for (var w = WG / 2u; w > 0u; w /= 2u) {
    if (lid < w) { partial[lid] += partial[lid + w]; }
    workgroupBarrier();
  }
  if (lid == 0u && row < p.rows) {
    var v = partial[0];
    if (ACCUMULATE) { v += out[row]; }
    out[row] = v;
  }
}

@compute @workgroup_size(256)
fn row_max(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
           @builtin(local_invocation_index) lid: u32) {
  let row = row_index(wid, nwg);
  var m = -3.4028234663852886e38;
  if (row < p.rows) {
    for (var j = lid; j < p.cols; j += WG) { m = max(m, x[row * p.cols + j]); }
  }
  partial[lid] = m;
  workgroupBarrier();
  for (var w = WG / 2u; w > 0u; w /= 2u) {
    if (lid < w) { partial[lid] = max(partial[lid], partial[lid + w]); }
    workgroupBarrier();
  }
  if (lid == 0u && row < p.rows) { out[row] = partial[0]; }
}

@compute @workgroup_size(256)
fn col_sum(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let col = gid.x + gid.y * nwg.x * WG;
  if (col >= p.cols) { return; }
  var s = 0.0;
  for (var i = 0u; i < p.rows; i++) { s += x[i * p.cols + col]; }
  if (ACCUMULATE) { s += out[col]; }
  out[col] = s;
}
