import { afterEach, describe, expect, it } from 'vitest';
import { diagnoseEndpoint, type DoctorReport, renderDoctorReport } from '../../src/llm/doctor';
import { DEFAULT_PRICES } from '../../src/llm/prices';
import { SERVER_PROFILES, type ServerProfile } from '../../src/simulator/profiles';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server';

/** `verity doctor`'s probes against the simulator playing each provider (over HTTP). */

const simulators: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(simulators.splice(0).map((sim) => sim.close()));
});

async function doctor(profile: ServerProfile, model: string, options: { simulated?: boolean } = {}): Promise<DoctorReport> {
  const sim = await startSimulator({ port: 0, profile });
  simulators.push(sim);
  return diagnoseEndpoint({ endpoint: { baseUrl: sim.url, apiKey: 'sim' }, model, prices: DEFAULT_PRICES, timeoutMs: 5_000, ...options });
}

const check = (report: DoctorReport, name: string) => report.checks.find((c) => c.name === name);

describe('verity doctor against the simulator profiles', () => {
  it('openai, gpt-4o-mini: everything works, max_tokens and json_schema, priced', async () => {
    const report = await doctor('openai', 'gpt-4o-mini');
    expect(report).toMatchObject({ family: 'openai-chat', problems: 0, uses: { tokenParameter: 'max_tokens', responseFormat: 'json_schema' } });
    for (const name of ['chat', 'json_schema', 'json_object', 'tools', 'seed', 'embeddings', 'price']) expect(check(report, name)?.ok, name).toBe(true);
    expect(renderDoctorReport(report)).toMatch(/no problems$/);
  });

  it('openai-reasoning, gpt-5-mini: max_completion_tokens with the reasoning allowance, no temperature, reasoning tokens reported', async () => {
    const report = await doctor('openai-reasoning', 'gpt-5-mini');
    expect(report).toMatchObject({ family: 'openai-reasoning', problems: 0, uses: { tokenParameter: 'max_completion_tokens', reasoningMultiplier: 8, omitted: ['temperature', 'top_p'] } });
    expect(check(report, 'reasoning tokens')?.detail).toMatch(/^\d+ reported; cap × 8/);
  });

  it('openai-reasoning, a model the table does not know: one line naming the refused parameter, with its fix', async () => {
    const report = await doctor('openai-reasoning', 'my-reasoner');
    expect(report.problems).toBeGreaterThan(0);
    const refusal = report.checks.find((c) => c.ok === false && c.detail.startsWith("the server refuses 'max_tokens'"));
    expect(refusal?.fix).toMatch(/src\/llm\/capabilities\.ts/);
    expect(renderDoctorReport(report)).toContain("FAIL chat             the server refuses 'max_tokens'");
  });

  it("no-seed: the refused seed is its own problem line", async () => {
    const report = await doctor('no-seed', 'gpt-4o-mini');
    expect(check(report, 'seed')).toMatchObject({ ok: false });
    expect(check(report, 'seed')!.detail).toContain("Unsupported parameter: 'seed'");
  });

  it('no-response-format: json_schema and json_object fail with the fallback named, the schema in the prompt is used', async () => {
    const report = await doctor('no-response-format', 'gpt-4o-mini');
    expect(report.uses.responseFormat).toBe('prompt');
    expect(check(report, 'json_schema')).toMatchObject({ ok: false });
    expect(check(report, 'json_object')).toMatchObject({ ok: false });
  });

  it.each([
    ['gpt-oss-vllm', 'openai/gpt-oss-20b', 'gpt-oss'],
    ['ollama', 'gpt-oss:20b', 'gpt-oss'],
    ['anthropic-compat', 'claude-sonnet-4-5', 'anthropic-compat'],
    ['gemini-compat', 'gemini-2.5-flash', 'gemini-compat'],
  ] as const)('%s, %s: answers; an unpriced model is a problem with its fix', async (profile, model, family) => {
    const report = await doctor(profile, model);
    expect(report.family).toBe(family);
    expect(check(report, 'chat')?.ok).toBe(true);
    expect(check(report, 'price')).toMatchObject({ ok: false, fix: expect.stringMatching(/VERITY_PRICES_FILE/) });
  });

  it('the simulator itself prices nothing on purpose', async () => {
    const report = await doctor('openai', 'gpt-4o-mini', { simulated: true });
    expect(check(report, 'price')).toMatchObject({ ok: null });
  });

  // Every profile the simulator plays, not only the providers' rows: the model each is met with.
  const MODEL_OF_PROFILE: Record<ServerProfile, string> = {
    openai: 'gpt-4o-mini',
    'llama.cpp': 'qwen2.5-coder-0.5b-instruct',
    'llama-cpp-python': 'qwen2.5-coder-0.5b-instruct',
    'no-response-format': 'gpt-4o-mini',
    prose: 'gpt-4o-mini',
    loop: 'gpt-4o-mini',
    'openai-reasoning': 'gpt-5-mini',
    'gpt-oss-vllm': 'openai/gpt-oss-20b',
    ollama: 'gpt-oss:20b',
    'anthropic-compat': 'claude-sonnet-4-5',
    'gemini-compat': 'gemini-2.5-flash',
    'no-seed': 'gpt-4o-mini',
  };

  it.each(SERVER_PROFILES)('%s: prints its table (endpoint, what verity will send, one line per check, the problem count)', async (profile) => {
    const report = await doctor(profile, MODEL_OF_PROFILE[profile]);
    const lines = renderDoctorReport(report).split('\n');
    expect(lines[0]).toBe(`endpoint ${report.baseUrl}, model ${MODEL_OF_PROFILE[profile]} (${report.family})`);
    expect(lines[1]).toMatch(/^verity will send: max_(?:completion_)?tokens \(task cap × \d+\), structured output by (?:json_schema|json_object|prompt|none)/);
    for (const check of report.checks) expect(lines.some((line) => line.startsWith(`${check.ok === true ? 'ok  ' : check.ok === false ? 'FAIL' : '--  '} ${check.name}`))).toBe(true);
    expect(report.checks.map((check) => check.name)).toEqual(expect.arrayContaining(['models', 'chat', 'price']));
    expect(lines.at(-1)).toBe(report.problems === 0 ? 'no problems' : `${report.problems} problem${report.problems === 1 ? '' : 's'}`);
  });
});
