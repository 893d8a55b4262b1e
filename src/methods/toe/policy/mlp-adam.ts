/** Adam with a global gradient-norm clip, over the policy network's parameters. */
import { type Mlp, type MlpGradients } from './mlp';

export interface AdamOptions {
  learningRate: number;
  beta1: number;
  beta2: number;
  epsilon: number;
}

export const DEFAULT_ADAM: AdamOptions = { learningRate: 1e-5, beta1: 0.9, beta2: 0.999, epsilon: 1e-8 };

export interface AdamState {
  step: number;
  m: MlpGradients;
  v: MlpGradients;
}

export function createAdamState(mlp: Mlp): AdamState {
  const zeros = (): MlpGradients => ({
    layers: mlp.layers.map((l) => ({ weights: new Float64Array(l.weights.length), bias: new Float64Array(l.bias.length) })),
  });
  return { step: 0, m: zeros(), v: zeros() };
}

/** The L2 norm of all gradients together. */
export function gradientNorm(grads: MlpGradients): number {
  let sum = 0;
  for (const layer of grads.layers) {
    for (const g of layer.weights) sum += g * g;
    for (const g of layer.bias) sum += g * g;
  }
  return Math.sqrt(sum);
}

/** Scales the gradients in place so their global norm is at most `maxNorm`; returns the norm before clipping. */
export function clipGradientNorm(grads: MlpGradients, maxNorm: number): number {
  const norm = gradientNorm(grads);
  if (norm > maxNorm && norm > 0) {
    const scale = maxNorm / norm;
    for (const layer of grads.layers) {
      for (let k = 0; k < layer.weights.length; k += 1) layer.weights[k] = (layer.weights[k] as number) * scale;
      for (let k = 0; k < layer.bias.length; k += 1) layer.bias[k] = (layer.bias[k] as number) * scale;
    }
  }
  return norm;
}

/** One Adam update of `mlp` in place (bias-corrected moments). */
export function adamStep(mlp: Mlp, grads: MlpGradients, state: AdamState, options: AdamOptions = DEFAULT_ADAM): void {
  state.step += 1;
  const { learningRate, beta1, beta2, epsilon } = options;
  const correction1 = 1 - beta1 ** state.step;
  const correction2 = 1 - beta2 ** state.step;
  const update = (params: Float64Array, g: Float64Array, m: Float64Array, v: Float64Array): void => {
    for (let k = 0; k < params.length; k += 1) {
      const gk = g[k] as number;
      m[k] = beta1 * (m[k] as number) + (1 - beta1) * gk;
      v[k] = beta2 * (v[k] as number) + (1 - beta2) * gk * gk;
      const mHat = (m[k] as number) / correction1;
      const vHat = (v[k] as number) / correction2;
      params[k] = (params[k] as number) - (learningRate * mHat) / (Math.sqrt(vHat) + epsilon);
    }
  };
  mlp.layers.forEach((layer, index) => {
    const g = grads.layers[index];
    const m = state.m.layers[index];
    const v = state.v.layers[index];
    if (!g || !m || !v) throw new Error('gradient shape does not match the network');
    update(layer.weights, g.weights, m.weights, v.weights);
    update(layer.bias, g.bias, m.bias, v.bias);
  });
}
