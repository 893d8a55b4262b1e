/**
 * The versioned weights file of ToE's learned retrieval policy: zod schema, (de)serialisation and
 * the version hash. Parameters are stored as little-endian float32 in base64 (≈155 kB for the
 * paper's 29,128 parameters); the version is a hash of those bytes plus the training metadata, so
 * two files with the same version hold the same policy.
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import { TOE_ACTIONS, TOE_STATE_DIM } from '../sandbox/toe-policy';
import { type Mlp } from './mlp';

export const TOE_POLICY_FORMAT = 'verity-toe-policy';
/** Paper (toe.md §3.4): hidden sizes 128 → 128 → 64, softmax head over 8 actions. */
export const TOE_POLICY_HIDDEN = [128, 128, 64] as const;
export const TOE_POLICY_SIZES: readonly number[] = [TOE_STATE_DIM, ...TOE_POLICY_HIDDEN, TOE_ACTIONS.length];

const layerSchema = z
  .object({
    inDim: z.number().int().positive(),
    outDim: z.number().int().positive(),
    weights: z.string().min(1),
    bias: z.string().min(1),
  })
  .strict();

/** What produced the weights: enough to retrain them and to know what they were trained on. */
export const trainingMetadataSchema = z
  .object({
    method: z.enum(['init', 'grpo', 'warmup-clone']),
    seed: z.number().int(),
    /** Version of the weights training started from (absent for a fresh init). */
    parentVersion: z.string().optional(),
    episodes: z.number().int().nonnegative(),
    steps: z.number().int().nonnegative(),
    /** Where the episodes came from, e.g. `es:verity-toe-episodes` or a JSONL file name. */
    source: z.string(),
    /** sha256 of the episodes' canonical JSON, so a retrain can check it saw the same data. */
    episodesHash: z.string().optional(),
    hyperparameters: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
    updates: z.number().int().nonnegative(),
  })
  .strict();
export type TrainingMetadata = z.infer<typeof trainingMetadataSchema>;

export const policyWeightsFileSchema = z
  .object({
    format: z.literal(TOE_POLICY_FORMAT),
    version: z.string().min(1),
    stateLayoutVersion: z.string().min(1),
    actions: z.array(z.string()),
    activation: z.literal('tanh'),
    encoding: z.literal('float32-le-base64'),
    layers: z.array(layerSchema).min(1),
    training: trainingMetadataSchema,
  })
  .strict()
  .superRefine((file, ctx) => {
    if (file.actions.join(',') !== TOE_ACTIONS.join(',')) {
      ctx.addIssue({ code: 'custom', message: `actions must be ${TOE_ACTIONS.join(',')} in that order` });
    }
    const first = file.layers[0];
    const last = file.layers[file.layers.length - 1];
    if (first?.inDim !== TOE_STATE_DIM) ctx.addIssue({ code: 'custom', message: `the first layer must take ${TOE_STATE_DIM} inputs` });
    if (last?.outDim !== TOE_ACTIONS.length) ctx.addIssue({ code: 'custom', message: `the last layer must output ${TOE_ACTIONS.length} logits` });
    file.layers.forEach((layer, index) => {
      const next = file.layers[index + 1];
      if (next && next.inDim !== layer.outDim) ctx.addIssue({ code: 'custom', message: `layer ${index + 1} input does not match layer ${index} output` });
    });
  });
export type PolicyWeightsFile = z.infer<typeof policyWeightsFileSchema>;

function encodeFloats(values: Float64Array): string {
  const floats = new Float32Array(values);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString('base64');
}

function decodeFloats(base64: string, expected: number, what: string): Float64Array {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length !== expected * 4) throw new Error(`${what}: expected ${expected} float32 values, got ${bytes.length / 4}`);
  const out = new Float64Array(expected);
  for (let k = 0; k < expected; k += 1) {
    const value = bytes.readFloatLE(k * 4);
    if (!Number.isFinite(value)) throw new Error(`${what}: value ${k} is not finite`);
    out[k] = value;
  }
  return out;
}

/** The hash that names a policy: its stored parameters, state layout and training metadata. */
export function policyVersion(file: Omit<PolicyWeightsFile, 'version'>): string {
  const canonical = JSON.stringify({
    stateLayoutVersion: file.stateLayoutVersion,
    actions: file.actions,
    activation: file.activation,
    layers: file.layers,
    training: canonicalise(file.training),
  });
  return `toe-policy-${crypto.createHash('sha256').update(canonical).digest('hex').slice(0, 16)}`;
}

/** JSON with object keys sorted, so the hash does not depend on key order. */
function canonicalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalise);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonicalise(v)]),
    );
  }
  return value;
}

export function serialiseWeights(mlp: Mlp, stateLayoutVersion: string, training: TrainingMetadata): PolicyWeightsFile {
  const body: Omit<PolicyWeightsFile, 'version'> = {
    format: TOE_POLICY_FORMAT,
    stateLayoutVersion,
    actions: [...TOE_ACTIONS],
    activation: 'tanh',
    encoding: 'float32-le-base64',
    layers: mlp.layers.map((layer) => ({
      inDim: layer.inDim,
      outDim: layer.outDim,
      weights: encodeFloats(layer.weights),
      bias: encodeFloats(layer.bias),
    })),
    training,
  };
  return { ...body, version: policyVersion(body) };
}

/** Validates a parsed weights file (schema, shapes, version hash) and builds the network. */
export function deserialiseWeights(raw: unknown, source = 'weights file'): { file: PolicyWeightsFile; mlp: Mlp } {
  const parsed = policyWeightsFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`${source} is not a ToE policy weights file: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const file = parsed.data;
  const { version, ...body } = file;
  const expected = policyVersion(body);
  if (version !== expected) throw new Error(`${source}: version ${version} does not match its contents (${expected})`);
  const mlp: Mlp = {
    layers: file.layers.map((layer, index) => ({
      inDim: layer.inDim,
      outDim: layer.outDim,
      weights: decodeFloats(layer.weights, layer.inDim * layer.outDim, `${source} layer ${index} weights`),
      bias: decodeFloats(layer.bias, layer.outDim, `${source} layer ${index} bias`),
    })),
  };
  return { file, mlp };
}

/** Float32 rounding, as the weights file stores parameters; training ends with this so the saved policy equals the trained one. */
export function roundToStored(mlp: Mlp): Mlp {
  return {
    layers: mlp.layers.map((layer) => ({
      inDim: layer.inDim,
      outDim: layer.outDim,
      weights: Float64Array.from(new Float32Array(layer.weights)),
      bias: Float64Array.from(new Float32Array(layer.bias)),
    })),
  };
}
