// Batched categorical sampling of the next token, one invocation per sequence (requires
// random.wgsl). Temperature 0 is greedy; top_k 0 keeps the whole vocabulary. Writes the token
// (the next step's input) and its log-probability under the distribution it was drawn from, and
// records both in the generation's history at row hist_offset / B, so the host reads them back
// only now and then. With max_place > 0 it also moves each sequence's digit place on.

struct Params {
  B: u32, vocab: u32, stride: u32, offset: u32,
  temperature: f32, top_k: u32, seed: u32, counter: u32,
  hist_offset: u32, first_digit: u32, max_place: u32, _pad: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> logits: array<f32>;
@group(0) @binding(2) var<storage, read_write> tokens: array<u32>;
@group(0) @binding(3) var<storage, read_write> logprobs: array<f32>;
@group(0) @binding(4) var<storage, read_write> hist_tokens: array<u32>;
@group(0) @binding(5) var<storage, read_write> hist_logprobs: array<f32>;
@group(0) @binding(6) var<storage, read_write> place: array<u32>;

fn emit(b: u32, token: u32, lp: f32) {
  tokens[b] = token;
  logprobs[b] = lp;
  hist_tokens[p.hist_offset + b] = token;
  hist_logprobs[p.hist_offset + b] = lp;
  if (p.max_place > 0u) {
    let digit = token >= p.first_digit && token < p.first_digit + 10u;
    place[b] = select(0u, min(place[b] + 1u, p.max_place), digit);
  }
}

// Rank of v by logit, ties broken by index: v survives top-k when its rank is below k.
fn kept(o: u32, v: u32) -> bool {
  if (p.top_k == 0u || p.top_k >= p.vocab) { return true; }
  var rank = 0u;
  let lv = logits[o + v];
  for (var u = 0u; u < p.vocab; u++) {
    let lu = logits[o + u];
    if (lu > lv || (lu == lv && u < v)) { rank++; }
  }
  return rank < p.top_k;
}

@compute @workgroup_size(64)
fn sample(@builtin(global_invocation_id) gid: vec3u) {
  let b = gid.x;
  if (b >= p.B) { return; }
  let o = p.offset + b * p.stride;
  var m = -3.4028234663852886e38;
  var best = 0u;
  for (var v = 0u; v < p.vocab; v++) {
    if (logits[o + v] > m) { m = logits[o + v]; best = v; }
  }
  if (p.temperature <= 0.0) {
    var z = 0.0;
    for (var v = 0u; v < p.vocab; v++) { z += exp(logits[o + v] - m); }
    emit(b, best, -log(z));
    return;
  }
  var z = 0.0;
  for (var v = 0u; v < p.vocab; v++) {
    if (kept(o, v)) { z += exp((logits[o + v] - m) / p.temperature); }
  }
  let goal = uniform_at(p.seed, p.counter + b) * z;
  var acc = 0.0;
  var chosen = best;
  for (var v = 0u; v < p.vocab; v++) {
    if (!kept(o, v)) { continue; }
    acc += exp((logits[o + v] - m) / p.temperature);
    chosen = v;
    if (acc > goal) { break; }
  }
  emit(b, chosen, (logits[o + chosen] - m) / p.temperature - log(z));
}
