import { describe, expect, it } from 'vitest';
import { backward, forward, logitsOf, parameterCount, softmax, zeroGradients, type Mlp } from '../../src/methods/toe/policy/mlp';
import { adamStep, clipGradientNorm, createAdamState, gradientNorm } from '../../src/methods/toe/policy/mlp-adam';
import { initMlp } from '../../src/methods/toe/policy/mlp-init';
import { TOE_POLICY_SIZES } from '../../src/methods/toe/policy/weights';

/** 2 → 2 (tanh) → 2 logits, worked by hand below. */
function tinyNetwork(): Mlp {
  return {
    layers: [
      { inDim: 2, outDim: 2, weights: Float64Array.from([0.5, -1, 1, 0]), bias: Float64Array.from([0, 0.5]) },
      { inDim: 2, outDim: 2, weights: Float64Array.from([1, 1, 2, -1]), bias: Float64Array.from([0.1, -0.1]) },
    ],
  };
}

const T = Math.tanh(1.5); // 0.9051482536…
const D = 1 - T * T; // 0.1807066…

describe('policy MLP', () => {
  it('computes the forward pass of a tiny network as worked by hand', () => {
    // z₁ = W₁x + b₁ = [0.5·1 − 1·2, 1·1 + 0.5] = [−1.5, 1.5]; h = tanh(z₁) = [−T, T]
    // logits = W₂h + b₂ = [−T + T + 0.1, −2T − T − 0.1]
    const trace = forward(tinyNetwork(), [1, 2]);
    expect(Array.from(trace.activations[1]!)).toEqual([-T, T].map((v) => expect.closeTo(v, 12)));
    expect(Array.from(logitsOf(trace))).toEqual([expect.closeTo(0.1, 12), expect.closeTo(-3 * T - 0.1, 12)]);
    expect(-3 * T - 0.1).toBeCloseTo(-2.8154447608, 9);
  });

  it('backpropagates dL/dlogits = [1, 0] to the hand-computed parameter gradients', () => {
    const net = tinyNetwork();
    const grads = zeroGradients(net);
    backward(net, forward(net, [1, 2]), [1, 0], grads);
    // dW₂ = g ⊗ h, db₂ = g; dh = W₂ᵀg = [1, 1]; dz₁ = dh ⊙ (1 − h²) = [D, D]; dW₁ = dz₁ ⊗ x
    expect(Array.from(grads.layers[1]!.weights)).toEqual([-T, T, 0, 0].map((v) => expect.closeTo(v, 12)));
    expect(Array.from(grads.layers[1]!.bias)).toEqual([1, 0]);
    expect(Array.from(grads.layers[0]!.weights)).toEqual([D, 2 * D, D, 2 * D].map((v) => expect.closeTo(v, 12)));
    expect(Array.from(grads.layers[0]!.bias)).toEqual([D, D].map((v) => expect.closeTo(v, 12)));
    expect(D).toBeCloseTo(0.18070664, 7);
  });

  it('accumulates gradients across calls (a batch is a sum of examples)', () => {
    const net = tinyNetwork();
    const grads = zeroGradients(net);
    backward(net, forward(net, [1, 2]), [1, 0], grads);
    backward(net, forward(net, [1, 2]), [1, 0], grads);
    expect(grads.layers[1]!.bias[0]).toBe(2);
  });

  it('matches finite differences on the paper-sized network (29→128→128→64→8)', () => {
    const net = initMlp(TOE_POLICY_SIZES, 7);
    expect(parameterCount(net)).toBe(29_128);
    const state = Array.from({ length: 29 }, (_, i) => ((i * 37) % 11) / 10);
    const target = 3;
    // loss = −log softmax(logits)[target]; dL/dlogits = p − onehot
    const loss = (): number => -Math.log(softmax(logitsOf(forward(net, state)))[target]!);
    const p = softmax(logitsOf(forward(net, state)));
    const grads = zeroGradients(net);
    backward(net, forward(net, state), Array.from(p, (v, j) => v - (j === target ? 1 : 0)), grads);
    for (const [layer, index] of [
      [0, 5],
      [1, 300],
      [2, 1000],
      [3, 77],
    ] as const) {
      const w = net.layers[layer]!.weights;
      const original = w[index]!;
      w[index] = original + 1e-6;
      const up = loss();
      w[index] = original - 1e-6;
      const down = loss();
      w[index] = original;
      expect(grads.layers[layer]!.weights[index]!).toBeCloseTo((up - down) / 2e-6, 6);
    }
  });

  it('softmax is stable for large logits and sums to 1', () => {
    const p = softmax([1000, 1000, 0]);
    expect(p[0]).toBeCloseTo(0.5, 12);
    expect(p[2]).toBe(0);
  });

  it('starts near-uniform and is reproducible from the seed', () => {
    const a = initMlp(TOE_POLICY_SIZES, 1);
    const b = initMlp(TOE_POLICY_SIZES, 1);
    const c = initMlp(TOE_POLICY_SIZES, 2);
    expect(a.layers[0]!.weights).toEqual(b.layers[0]!.weights);
    expect(a.layers[0]!.weights).not.toEqual(c.layers[0]!.weights);
    const probs = softmax(logitsOf(forward(a, Array(29).fill(1))));
    for (const v of probs) expect(Math.abs(v - 0.125)).toBeLessThan(0.01);
  });

  it('clips the global gradient norm and takes a bias-corrected Adam step', () => {
    const net = tinyNetwork();
    const grads = zeroGradients(net);
    grads.layers[1]!.bias.set([3, 4]);
    expect(clipGradientNorm(grads, 0.5)).toBe(5);
    expect(gradientNorm(grads)).toBeCloseTo(0.5, 12);
    expect(Array.from(grads.layers[1]!.bias)).toEqual([expect.closeTo(0.3, 12), expect.closeTo(0.4, 12)]);
    // First Adam step moves every parameter with a non-zero gradient by ≈ lr·sign(g) (m̂/√v̂ = ±1).
    const state = createAdamState(net);
    adamStep(net, grads, state, { learningRate: 0.01, beta1: 0.9, beta2: 0.999, epsilon: 1e-8 });
    expect(net.layers[1]!.bias[0]).toBeCloseTo(0.1 - 0.01, 6);
    expect(net.layers[1]!.bias[1]).toBeCloseTo(-0.1 - 0.01, 6);
    expect(net.layers[0]!.weights[0]).toBe(0.5);
  });
});
