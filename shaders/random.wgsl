// Counter-based random numbers, the same function as src/engine/random.ts: draw `counter` of
// stream `seed` is pcg(pcg(seed) ^ counter), independent of launch order and thread layout.

fn pcg_hash(x: u32) -> u32 {
  let state = x * 747796405u + 2891336453u;
  let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}

// Uniform in [0, 1) with 24 bits, exactly representable in f32.
fn uniform_at(seed: u32, counter: u32) -> f32 {
  return f32(pcg_hash(pcg_hash(seed) ^ counter) >> 8u) / 16777216.0;
}
