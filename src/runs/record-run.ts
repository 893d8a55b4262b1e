import { compareRunConfigs, type RunConfigChange } from './run-growth';
import type { RunManifest } from './run-manifest';
import type { RunStore } from './run-store';

/** A run id already used with a config that would change its existing verifications. */
export class IncompatibleRunChangeError extends Error {
  override name = 'IncompatibleRunChangeError';
  constructor(
    readonly runId: string,
    readonly change: string,
  ) {
    super(`run "${runId}" cannot take this config: ${change}; only datasets, methods and models may be added to a run (or choose a new run id)`);
  }
}

export type RecordedRun = { kind: 'new' } | RunConfigChange;

/**
 * Saves the manifest of a new run, or of a run grown by added datasets, methods or models (the
 * recorded manifest keeps its creation time). Refuses a change to what existing verifications are.
 */
export async function recordRun(runs: RunStore, manifest: RunManifest, options: { sweepRunning?: boolean } = {}): Promise<RecordedRun> {
  const existing = await runs.get(manifest.runId);
  if (!existing) {
    await runs.save(manifest);
    return { kind: 'new' };
  }
  const change = compareRunConfigs(existing.config, manifest.config);
  if (change.kind === 'incompatible') throw new IncompatibleRunChangeError(manifest.runId, change.change);
  if (change.kind === 'grown' && options.sweepRunning) {
    throw new IncompatibleRunChangeError(manifest.runId, `its sweep is still running, so ${change.added.join(', ')} cannot be added yet (pause, cancel or let it finish first)`);
  }
  if (change.kind === 'grown') await runs.save({ ...manifest, createdAt: existing.createdAt, status: 'running' });
  return change;
}
