// General matrix multiply: C = op(A) · op(B) (+ bias) (+= C), batched with strides.
// op(A) is A [M,K] or Aᵀ (A stored [K,M]); op(B) is B [K,N] or Bᵀ (B stored [N,K]). The
// transposed variants are the backward pass of a linear layer: dX = dY·Wᵀ... and dW = Xᵀ·dY.
// Each invocation computes a 4×4 (or, WIDE, 4×8) block of C from registers; no workgroup
// memory, so the same kernel compiles fast everywhere and is bandwidth-friendly for the small
// shapes we use. Whole blocks run a loop with hoisted strides and no bounds checks (3–4× faster
// on SwiftShader); blocks on the matrix's edge take the checked loads.

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
// Eight columns per invocation instead of four: fewer, longer invocations, which software
// adapters run faster; the wrapper picks it where the launch still has many invocations.
override WIDE: bool = false;

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
  let cols = select(4u, 8u, WIDE);
  let col0 = gid.x * cols;
  let batch = gid.z;
  if (row0 >= p.M || col0 >= p.N || batch >= p.batch) { return; }
  let baseA = batch * p.strideA;
  let baseB = batch * p.strideB;
  let baseC = batch * p.strideC;

  var acc: array<vec4f, 4>;
  var acc2: array<vec4f, 4>;
  if (row0 + 4u <= p.M && col0 + cols <= p.N) {
    // A whole tile: strides hoisted, no bounds checks in the loop.
    var ia = baseA + select(row0 * p.lda, row0, TRANS_A);
    var ib = baseB + select(col0, col0 * p.ldb, TRANS_B);
    let sa = select(p.lda, 1u, !TRANS_A); // step of A along k
    let ra = select(1u, p.lda, !TRANS_A); // step of A between rows
    let sb = select(p.ldb, 1u, TRANS_B);  // step of B along k
    let cb = select(1u, p.ldb, TRANS_B);  // step of B between columns
    for (var k = 0u; k < p.K; k++) {
      let bv = vec4f(b[ib], b[ib + cb], b[ib + 2u * cb], b[ib + 3u * cb]);
      let a0 = a[ia];
      let a1 = a[ia + ra];
      let a2 = a[ia + 2u * ra];
      let a3 = a[ia + 3u * ra];
      acc[0] += a0 * bv;
      acc[1] += a1 * bv;
      acc[2] += a2 * bv;
      acc[3] += a3 * bv;
      if (WIDE) {
        let bw = vec4f(b[ib + 4u * cb], b[ib + 5u * cb], b[ib + 6u * cb], b[ib + 7u * cb]);
        acc2[0] += a0 * bw;
        acc2[1] += a1 * bw;
        acc2[2] += a2 * bw;
        acc2[3] += a3 * bw;
      }
      ia += sa;
      ib += sb;
    }
  } else {
    for (var k = 0u; k < p.K; k++) {
      let bv = vec4f(load_b(baseB, k, col0), load_b(baseB, k, col0 + 1u),
                     load_b(baseB, k, col0 + 2u), load_b(baseB, k, col0 + 3u));
      var bw = vec4f();
      if (WIDE) {
        bw = vec4f(load_b(baseB, k, col0 + 4u), load_b(baseB, k, col0 + 5u),
                   load_b(baseB, k, col0 + 6u), load_b(baseB, k, col0 + 7u));
      }
      for (var r = 0u; r < 4u; r++) {
        let av = load_a(baseA, row0 + r, k);
        acc[r] += av * bv;
        if (WIDE) { acc2[r] += av * bw; }
      }
    }
  }

  for (var r = 0u; r < 4u; r++) {
    let i = row0 + r;
    if (i >= p.M) { break; }
    for (var q = 0u; q < cols; q++) {
      let j = col0 + q;
      if (j >= p.N) { break; }
      var v = select(acc2[r][q & 3u], acc[r][q & 3u], q < 4u);
      if (HAS_BIAS) { v += bias[j]; }
      let at = baseC + i * p.ldc + j;
      if (ACCUMULATE) { v += c[at]; }
      c[at] = v;
    }
  }
}
