/** Seeded initialisation of the policy network (reproducible from the seed alone). */
import { mulberry32 } from '../../../shared/prng';
import { type DenseLayer, type Mlp } from './mlp';

/** The output layer starts 100× smaller so the untrained policy is close to uniform. */
const OUTPUT_LAYER_SCALE = 0.01;

/**
 * Glorot-uniform weights (suited to tanh), zero biases. `sizes` = [input, hidden…, output],
 * e.g. [29, 128, 128, 64, 8].
 */
export function initMlp(sizes: readonly number[], seed: number): Mlp {
  if (sizes.length < 2) throw new Error('an MLP needs at least an input and an output size');
  const random = mulberry32(seed);
  const layers: DenseLayer[] = [];
  for (let index = 0; index + 1 < sizes.length; index += 1) {
    const inDim = sizes[index] as number;
    const outDim = sizes[index + 1] as number;
    const isOutput = index + 2 === sizes.length;
    const limit = Math.sqrt(6 / (inDim + outDim)) * (isOutput ? OUTPUT_LAYER_SCALE : 1);
    const weights = new Float64Array(inDim * outDim);
    for (let k = 0; k < weights.length; k += 1) weights[k] = (random() * 2 - 1) * limit;
    layers.push({ inDim, outDim, weights, bias: new Float64Array(outDim) });
  }
  return { layers };
}
