/**
 * A small fully connected network in plain TypeScript (float64): tanh hidden layers and a linear
 * output (the logits of a softmax policy). Forward and backward passes for ToE's retrieval policy
 * (toe.md §3.4: 29 → 128 → 128 → 64 → 8). No Node APIs, so it is safe anywhere.
 */

/** One dense layer; `weights` is row-major [out][in], i.e. weights[o * inDim + i]. */
export interface DenseLayer {
  inDim: number;
  outDim: number;
  weights: Float64Array;
  bias: Float64Array;
}

export interface Mlp {
  layers: DenseLayer[];
}

/** The activations of one forward pass: [input, hidden₁ (tanh), …, logits]. */
export interface ForwardTrace {
  activations: Float64Array[];
}

/** Parameter gradients, shaped like the network's layers. */
export interface MlpGradients {
  layers: { weights: Float64Array; bias: Float64Array }[];
}

export function forward(mlp: Mlp, input: readonly number[] | Float64Array): ForwardTrace {
  const first = mlp.layers[0];
  if (!first || input.length !== first.inDim) {
    throw new Error(`policy network expects ${first?.inDim ?? 0} inputs, got ${input.length}`);
  }
  const activations: Float64Array[] = [Float64Array.from(input)];
  mlp.layers.forEach((layer, index) => {
    const x = activations[activations.length - 1] as Float64Array;
    const y = new Float64Array(layer.outDim);
    const isOutput = index === mlp.layers.length - 1;
    for (let o = 0; o < layer.outDim; o += 1) {
      let sum = layer.bias[o] as number;
      const row = o * layer.inDim;
      for (let i = 0; i < layer.inDim; i += 1) sum += (layer.weights[row + i] as number) * (x[i] as number);
      y[o] = isOutput ? sum : Math.tanh(sum);
    }
    activations.push(y);
  });
  return { activations };
}

export function logitsOf(trace: ForwardTrace): Float64Array {
  return trace.activations[trace.activations.length - 1] as Float64Array;
}

/** Numerically stable softmax. */
export function softmax(logits: ArrayLike<number>): Float64Array {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i += 1) max = Math.max(max, logits[i] as number);
  const out = new Float64Array(logits.length);
  let total = 0;
  for (let i = 0; i < logits.length; i += 1) {
    out[i] = Math.exp((logits[i] as number) - max);
    total += out[i] as number;
  }
  for (let i = 0; i < out.length; i += 1) out[i] = (out[i] as number) / total;
  return out;
}

export function zeroGradients(mlp: Mlp): MlpGradients {
  return {
    layers: mlp.layers.map((layer) => ({
      weights: new Float64Array(layer.weights.length),
      bias: new Float64Array(layer.bias.length),
    })),
  };
}

/**
 * Backpropagates dLoss/dLogits through one forward pass and ADDS the parameter gradients into
 * `into` (so a batch accumulates by calling this once per example).
 */
export function backward(mlp: Mlp, trace: ForwardTrace, dLogits: ArrayLike<number>, into: MlpGradients): void {
  let delta = Float64Array.from(dLogits as ArrayLike<number>);
  for (let index = mlp.layers.length - 1; index >= 0; index -= 1) {
    const layer = mlp.layers[index] as DenseLayer;
    const grads = into.layers[index] as MlpGradients['layers'][number];
    const x = trace.activations[index] as Float64Array;
    const dx = new Float64Array(layer.inDim);
    for (let o = 0; o < layer.outDim; o += 1) {
      const d = delta[o] as number;
      if (d === 0) continue;
      grads.bias[o] = (grads.bias[o] as number) + d;
      const row = o * layer.inDim;
      for (let i = 0; i < layer.inDim; i += 1) {
        grads.weights[row + i] = (grads.weights[row + i] as number) + d * (x[i] as number);
        dx[i] = (dx[i] as number) + d * (layer.weights[row + i] as number);
      }
    }
    if (index > 0) {
      // x is the tanh output of the layer below: d tanh(z)/dz = 1 − tanh(z)².
      for (let i = 0; i < dx.length; i += 1) dx[i] = (dx[i] as number) * (1 - (x[i] as number) ** 2);
    }
    delta = dx;
  }
}

export function parameterCount(mlp: Mlp): number {
  return mlp.layers.reduce((sum, layer) => sum + layer.weights.length + layer.bias.length, 0);
}

export function cloneMlp(mlp: Mlp): Mlp {
  return {
    layers: mlp.layers.map((layer) => ({
      inDim: layer.inDim,
      outDim: layer.outDim,
      weights: Float64Array.from(layer.weights),
      bias: Float64Array.from(layer.bias),
    })),
  };
}
