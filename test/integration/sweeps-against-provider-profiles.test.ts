import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import { ingestCorpus } from '../../src/corpus/ingest';
import { loadRunReport, type RunReport } from '../../src/report';
import { buildRunManifest } from '../../src/runs/build-manifest';
import { readRunConfig } from '../../src/runs/read-run-config';
import { type RunConfig, runConfigSchema } from '../../src/runs/run-manifest';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import type { ServerProfile } from '../../src/simulator/profiles';
import { simulatorProfileForModel } from '../../src/simulator/profile-for-model';
import { projectRoot } from '../../src/project-root';
import { DEMO_CLAIMS, DEMO_CORPUS, uniqueName } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

/**
 * Issue 38's done-when: every committed sweep config's model list, each model against the simulator
 * profile that plays how it is served today (simulatorProfileForModel, from the capability table),
 * 2 demo claims per method, on real Temporal and Elasticsearch. Every verification ends in a verdict,
 * no request is refused, and the reasoning tokens of reasoning models reach the report.
 */
const SWEEPS_DIR = path.join(projectRoot(), 'eval', 'sweeps');
const CLAIMS_PER_METHOD = 2;

interface ProfiledSweep {
  file: string;
  profile: ServerProfile;
  config: RunConfig;
}

/** Each committed sweep split by profile: its models played by the same simulator run as one sweep. */
function profiledSweeps(): ProfiledSweep[] {
  const files = fs.readdirSync(SWEEPS_DIR).filter((name) => name.endsWith('.yaml')).sort();
  return files.flatMap((file) => {
    const config = readRunConfig(path.join(SWEEPS_DIR, file));
    const byProfile = new Map<ServerProfile, string[]>();
    for (const model of config.models) byProfile.set(simulatorProfileForModel(model), [...(byProfile.get(simulatorProfileForModel(model)) ?? []), model]);
    return [...byProfile].map(([profile, models]) => ({
      file,
      profile,
      config: runConfigSchema.parse({
        ...config,
        run: uniqueName(file.replace(/\.yaml$/, '')),
        datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: CLAIMS_PER_METHOD }],
        models,
        concurrency: 8,
      }),
    }));
  });
}

describe('every committed sweep config against the simulator profiles of its models', () => {
  const sweeps = profiledSweeps();
  const profiles = [...new Set(sweeps.map((sweep) => sweep.profile))];
  const harnesses = new Map<ServerProfile, WorkerHarness>();
  const reports = new Map<ProfiledSweep, RunReport>();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-profiles-'));

  beforeAll(async () => {
    await Promise.all(
      profiles.map(async (profile) => {
        const harness = await startWorkerHarness(`prof-${profile}`, { simulator: { profile }, worker: { llm: { requestsPerSecond: 500, concurrency: 16 } } });
        harnesses.set(profile, harness);
        await ingestCorpus({ client: harness.es, index: webIndexName(harness.prefix), file: DEMO_CORPUS, target: WEB_TARGET });
      }),
    );
    await Promise.all(
      sweeps.map(async (sweep) => {
        const harness = harnesses.get(sweep.profile)!;
        const input = buildSweepInput(harness.config, sweep.config, tmp);
        await harness.deps.runs.save(await buildRunManifest(harness.config, sweep.config, input));
        await (await startSweep(harness.client, harness.config.temporal.taskQueue, input, { rerunFinished: true })).handle.result();
        reports.set(sweep, await loadRunReport(harness.es, harness.prefix, sweep.config.run, { bootstrap: { resamples: 20 } }));
      }),
    );
  }, 300_000);

  afterAll(async () => {
    await Promise.all([...harnesses.values()].map((harness) => harness.close()));
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('plays the reasoning models of the committed sweeps on their providers’ profiles', () => {
    expect(profiles).toEqual(expect.arrayContaining(['openai', 'openai-reasoning', 'gpt-oss-vllm']));
  });

  it('ends every verification of every sweep in a verdict, no request refused', () => {
    for (const sweep of sweeps) {
      const report = reports.get(sweep)!;
      const expected = sweep.config.methods.length * sweep.config.models.length;
      expect(report.groups, `${sweep.file} on ${sweep.profile}`).toHaveLength(expected);
      for (const group of report.groups) {
        expect(group.counts, `${sweep.file} ${group.key.method} ${group.key.model}`).toMatchObject({ claims: CLAIMS_PER_METHOD, verdicts: CLAIMS_PER_METHOD, failed: 0 });
      }
    }
    for (const [profile, harness] of harnesses) {
      const refused = harness.simulator.requests().filter((request) => request.path === '/v1/chat/completions' && request.status >= 400 && request.status < 500);
      expect(refused, profile).toEqual([]);
    }
  });

  it('carries the reasoning tokens of reasoning models into the report', () => {
    const reasoningGroups = sweeps.filter((sweep) => sweep.profile !== 'openai').flatMap((sweep) => reports.get(sweep)!.groups);
    expect(reasoningGroups.length).toBeGreaterThan(0);
    const withoutReasoningTokens = reasoningGroups.filter((group) => !(group.answers.reasoningTokens! > 0)).map((group) => `${group.key.method} ${group.key.model}`);
    expect(withoutReasoningTokens).toEqual([]);
    const chatGroups = sweeps.filter((sweep) => sweep.profile === 'openai').flatMap((sweep) => reports.get(sweep)!.groups);
    for (const group of chatGroups) expect(group.answers.reasoningTokens, `${group.key.method} ${group.key.model}`).toBeUndefined();
  });
});
