import { isDeepStrictEqual } from 'node:util';
import type { RunConfig } from './run-manifest';

/** How a run's config relates to the config it was recorded with. */
export type RunConfigChange =
  | { kind: 'same' }
  /** Only datasets, methods or models were added: the run grows, existing verdicts are reused. */
  | { kind: 'grown'; added: string[] }
  /** Something that decides an existing verification changed; `change` names it. */
  | { kind: 'incompatible'; change: string };

/**
 * Compares a run's recorded config with a new one (both with dataset sha256s). Budget,
 * concurrency and description may change freely; datasets, methods, models and repeats may only be added;
 * anything that would change an existing verification (seed, order, a dataset's sample, file
 * contents or index, the parameters of a method already in the run, rag parameters) is refused.
 */
export function compareRunConfigs(recorded: RunConfig, next: RunConfig): RunConfigChange {
  if (recorded.seed !== next.seed) return { kind: 'incompatible', change: `seed changed from ${recorded.seed} to ${next.seed}` };
  if (recorded.ordered !== next.ordered) return { kind: 'incompatible', change: `ordered changed from ${recorded.ordered} to ${next.ordered}` };
  if (!isDeepStrictEqual(recorded.check ?? null, next.check ?? null)) return { kind: 'incompatible', change: 'check changed (whether and how items are checked as documents)' };
  const added: string[] = [];
  const [recordedRepeats, nextRepeats] = [recorded.repeats ?? 1, next.repeats ?? 1];
  // Repeat r's verifications do not depend on how many repeats there are: more repeats grow the run.
  if (nextRepeats < recordedRepeats) return { kind: 'incompatible', change: `repeats lowered from ${recordedRepeats} to ${nextRepeats}` };
  if (nextRepeats > recordedRepeats) added.push(`repeats ${recordedRepeats} → ${nextRepeats}`);
  for (const dataset of recorded.datasets) {
    const same = next.datasets.find((candidate) => candidate.name === dataset.name && candidate.file === dataset.file);
    if (!same) return { kind: 'incompatible', change: `dataset ${dataset.name} (${dataset.file}) was removed` };
    if (dataset.sha256 !== same.sha256) return { kind: 'incompatible', change: `the contents of dataset file ${dataset.file} changed` };
    if ((dataset.sample ?? null) !== (same.sample ?? null)) {
      return { kind: 'incompatible', change: `dataset ${dataset.name}: sample changed from ${dataset.sample ?? 'all'} to ${same.sample ?? 'all'}` };
    }
    if (!isDeepStrictEqual(dataset.stratify ?? null, same.stratify ?? null)) return { kind: 'incompatible', change: `dataset ${dataset.name}: stratify changed` };
    if ((dataset.index ?? null) !== (same.index ?? null)) return { kind: 'incompatible', change: `dataset ${dataset.name}: index changed` };
    if (JSON.stringify(dataset.dropLabels ?? []) !== JSON.stringify(same.dropLabels ?? [])) return { kind: 'incompatible', change: `dataset ${dataset.name}: dropLabels changed` };
  }
  const recordedPositions = recorded.datasets.map((dataset) => next.datasets.findIndex((d) => d.name === dataset.name && d.file === dataset.file));
  if (recordedPositions.some((position, i) => position !== i)) {
    return { kind: 'incompatible', change: 'datasets were reordered or inserted before existing ones (add new datasets at the end)' };
  }
  for (const dataset of next.datasets.slice(recorded.datasets.length)) added.push(`dataset ${dataset.name}`);
  for (const method of recorded.methods) if (!next.methods.includes(method)) return { kind: 'incompatible', change: `method ${method} was removed` };
  for (const model of recorded.models) if (!next.models.includes(model)) return { kind: 'incompatible', change: `model ${model} was removed` };
  for (const method of next.methods) if (!recorded.methods.includes(method)) added.push(`method ${method}`);
  for (const model of next.models) if (!recorded.models.includes(model)) added.push(`model ${model}`);
  // Parameters of methods already in the run (and rag's, which every method uses) decide existing verdicts.
  const kept = new Set(['rag', ...recorded.methods]);
  for (const key of new Set([...Object.keys(recorded.parameters), ...Object.keys(next.parameters)])) {
    if (kept.has(key) && !isDeepStrictEqual(recorded.parameters[key], next.parameters[key])) {
      return { kind: 'incompatible', change: `parameters.${key} changed` };
    }
  }
  return added.length > 0 ? { kind: 'grown', added } : { kind: 'same' };
}
