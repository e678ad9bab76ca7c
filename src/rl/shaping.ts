/**
 * Policy shaping of off-policy tokens (LUFFY): their objective is f(p) = p/(p + γ) of the
 * policy's probability p rather than log p, so tokens the policy finds unlikely still teach it
 * without their gradient (which log p would scale by 1/p) taking over the update. Returns f(p)
 * and the weight that turns the gradient of log p into that of f(p):
 * ∂f/∂θ = f'(p)·p·∂log p/∂θ = γp/(p + γ)²·∂log p/∂θ.
 */
export function offPolicyShape(logp: number, gamma: number): { value: number; weight: number } {
  const p = Math.exp(logp);
  return { value: p / (p + gamma), weight: (gamma * p) / ((p + gamma) * (p + gamma)) };
}
