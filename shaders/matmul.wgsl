// General matrix multiply: C = op(A) · op(B) (+ bias) (+= C), batched with strides.
// op(A) is A [M,K] or Aᵀ (A stored [K,M]); op(B) is B [K,N] or Bᵀ (B stored [N,K]). The
// transposed variants are the backward pass of a linear layer: dX = dY·Wᵀ... and dW = Xᵀ·dY.
// Each invocation computes a 4×4 block of C from registers; no workgroup memory, so the same
// kernel compiles fast everywhere and is bandwidth-friendly for the small shapes we use.

struct Params {
  M: u32, N: u32, K: u32, batch: u32,
  lda: u32, ldb: u32, ldc: u32, _pad0: u32,
  strideA: u32, strideB: u32, strideC: u32, _pad1: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> c: array<f32>;

override TRANS_A: bool = false;
override TRANS_B: bool = false;
override HAS_BIAS: bool = false;
override ACCUMULATE: bool = false;

fn load_a(base: u32, i: u32, k: u32) -> f32 {
  if (i >= p.M || k >= p.K) { return 0.0; }
  if (TRANS_A) { return a[base + k * p.lda + i]; }
  return a[base + i * p.lda + k];
}

fn load_b(base: u32, k: u32, j: u32) -> f32 {
  if (k >= p.K || j >= p.N) { return 0.0; }
  if (TRANS_B) { return b[base + j * p.ldb + k]; }
  return b[base + k * p.ldb + j];
}

@compute @workgroup_size(8, 8, 1)
fn matmul(@builtin(global_invocation_id) gid: vec3u) {
  let row0 = gid.y * 4u;
  let col0 = gid.x * 4u;
  let batch = gid.z;
  if (row0 >= p.M || col0 >= p.N || batch >= p.batch) { return; }
  let baseA = batch * p.strideA;
  let baseB = batch * p.strideB;
  let baseC = batch * p.strideC;

  var acc: array<vec4f, 4>;
  for (var k = 0u; k < p.K; k++) {
    let bv = vec4f(load_b(baseB, k, col0), load_b(baseB, k, col0 + 1u),
                   load_b(baseB, k, col0 + 2u), load_b(baseB, k, col0 + 3u));
    for (var r = 0u; r < 4u; r++) {
      acc[r] += load_a(baseA, row0 + r, k) * bv;
    }
  }

  for (var r = 0u; r < 4u; r++) {
    let i = row0 + r;
    if (i >= p.M) { break; }
    for (var q = 0u; q < 4u; q++) {
      let j = col0 + q;
      if (j >= p.N) { break; }
      var v = acc[r][q];
      if (HAS_BIAS) { v += bias[j]; }
      let at = baseC + i * p.ldc + j;
      if (ACCUMULATE) { v += c[at]; }
      c[at] = v;
    }
  }
}
