// dst[r, c] = src[min(index[r], srcRows − 1)·stride + offset + c]: rows copied out of one buffer
// by index. Generation prefills a prompt that several sequences share once, then hands its K/V
// cache and last logits to each of them.

struct Params { rows: u32, rowLen: u32, stride: u32, offset: u32, srcRows: u32, _pad0: u32, _pad1: u32, _pad2: u32 }

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> index: array<u32>;
@group(0) @binding(2) var<storage, read> src: array<f32>;
@group(0) @binding(3) var<storage, read_write> dst: array<f32>;

@compute @workgroup_size(256)
fn gather_rows(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * 256u;
  if (i >= p.rows * p.rowLen) { return; }
  let r = i / p.rowLen;
  let c = i % p.rowLen;
  dst[i] = src[min(index[r], p.srcRows - 1u) * p.stride + p.offset + c];
}
