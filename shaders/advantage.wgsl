// Group-relative normalisation and per-row weights: the two device steps that turn GRPO
// rewards into token loss weights without a readback.
// group_normalize: for each group of `size` values, out = (x − mean) / (std + eps), or only
// x − mean when SCALE_BY_STD is off. A group whose values are all equal gets exactly 0.
// gather_scale: out[n] = coef[n] · src[index[n]] (a sequence's advantage on each of its rows).

struct Params { groups: u32, size: u32, eps: f32, n: u32 }

@group(0) @binding(0) var<uniform> p: Params;

override SCALE_BY_STD: bool = true;

@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(64)
fn group_normalize(@builtin(global_invocation_id) gid: vec3u) {
  let g = gid.x;
  if (g >= p.groups) { return; }
  let o = g * p.size;
  var mean = 0.0;
  for (var i = 0u; i < p.size; i++) { mean += x[o + i]; }
  mean /= f32(p.size);
  var spread = 0.0;
  var var_sum = 0.0;
  for (var i = 0u; i < p.size; i++) {
    let d = x[o + i] - mean;
    spread = max(spread, abs(d));
    var_sum += d * d;
  }
  // Unbiased std, as torch.std; all-equal groups are exactly zero, not 0/eps noise.
  let sd = sqrt(var_sum / f32(max(p.size, 2u) - 1u));
  for (var i = 0u; i < p.size; i++) {
    var a = 0.0;
    if (spread > 0.0) {
      a = x[o + i] - mean;
      if (SCALE_BY_STD) { a /= sd + p.eps; }
    }
    out[o + i] = a;
  }
}

@group(0) @binding(1) var<storage, read> src: array<f32>;
@group(0) @binding(2) var<storage, read> index: array<u32>;
@group(0) @binding(3) var<storage, read> coef: array<f32>;
@group(0) @binding(4) var<storage, read_write> dst: array<f32>;

@compute @workgroup_size(256)
fn gather_scale(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * 256u;
  if (i >= p.n) { return; }
  dst[i] = coef[i] * src[index[i]];
}
