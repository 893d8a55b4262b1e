/**
 * verity against a secured Elasticsearch (xpack security, HTTP TLS with a test CA, file-realm users)
 * and a Temporal reached over mTLS, driven as a user drives it: `verity` subprocesses.
 * Credential kinds: user/password with the CA file, user/password with the CA fingerprint, a
 * refused password, a read-only user, an API key of the app user, and an unknown API key.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { projectRoot } from '../../src/project-root';
import { type GrpcTlsFront, startGrpcTlsFront } from '../support/grpc-tls-front';
import { type SecuredElasticsearch, startSecuredElasticsearch } from '../support/secured-elasticsearch';
import { type TestPki, createTestPki } from '../support/test-pki';
import { DEMO_CLAIMS, DEMO_CORPUS, uniqueName } from '../support/test-env';

const ES_PORT = 9231;
const ES_TRANSPORT_PORT = 9331;
const TEMPORAL_FRONT_PORT = 7260;
const TEMPORAL_API_KEY_FRONT_PORT = 7261;
const TEMPORAL_API_KEY = 'temporal-cloud-style-key-0123456789';
const CLAIM = 'The Eiffel Tower was completed in 1889 as the entrance arch to the World\'s Fair in Paris.';

let es: SecuredElasticsearch;
let pki: TestPki;
let front: GrpcTlsFront;
let apiKeyFront: GrpcTlsFront;
let workDir: string;
const prefix = uniqueName('secured');
const taskQueue = uniqueName('secured-q');
const outputs: string[] = [];

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Temporal over mTLS through the front; Elasticsearch per test. Nothing else from the caller's environment. */
function env(elasticsearch: Record<string, string>): NodeJS.ProcessEnv {
  const { ES_API_KEY: _a, ES_USERNAME: _u, ES_PASSWORD: _p, ES_CA_CERT: _c, ES_CA_FINGERPRINT: _f, ES_CLOUD_ID: _i, ...rest } = process.env;
  return {
    ...rest,
    TEMPORAL_CONFIG_FILE: path.join(workDir, 'no-temporal.toml'),
    TEMPORAL_ADDRESS: front.address,
    TEMPORAL_NAMESPACE: 'default',
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.caCert,
    TEMPORAL_TLS_CLIENT_CERT_PATH: pki.clientCert,
    TEMPORAL_TLS_CLIENT_KEY_PATH: pki.clientKey,
    TEMPORAL_UI_URL: 'http://127.0.0.1:8233',
    TEMPORAL_TASK_QUEUE: taskQueue,
    ES_URL: es.url,
    ES_INDEX_PREFIX: prefix,
    VERITY_LOG_LEVEL: 'warn',
    ...elasticsearch,
  };
}

const basicWithCaFile = () => ({ ES_USERNAME: es.appUser.username, ES_PASSWORD: es.appUser.password, ES_CA_CERT: es.caCertFile });
const basicWithFingerprint = () => ({ ES_USERNAME: es.appUser.username, ES_PASSWORD: es.appUser.password, ES_CA_FINGERPRINT: es.caFingerprint });

function startVerity(args: string[], environment: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [path.join(projectRoot(), 'bin', 'verity.js'), ...args], { env: environment, cwd: workDir, stdio: ['ignore', 'pipe', 'pipe'] });
}

function verity(args: string[], environment: NodeJS.ProcessEnv): Promise<CliResult> {
  const child = startVerity(args, environment);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      outputs.push(stdout, stderr);
      process.stderr.write(`$ verity ${args.join(' ')}  → exit ${code}\n${stdout}${stderr}`);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

function sweepConfig(run: string, sample: number): string {
  const file = path.join(workDir, `${run}.yaml`);
  fs.writeFileSync(
    file,
    [`run: ${run}`, 'datasets:', `  - name: demo`, `    file: ${DEMO_CLAIMS}`, '    format: verity', `    sample: ${sample}`, 'methods: [rag]', 'models: [gpt-4o-mini]', 'seed: 7', 'concurrency: 4', ''].join('\n'),
  );
  return file;
}

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-secured-'));
  pki = await createTestPki(path.join(workDir, 'temporal-pki'));
  front = await startGrpcTlsFront({
    port: TEMPORAL_FRONT_PORT,
    upstream: inject('infra').temporalAddress,
    cert: pki.serverCert,
    key: pki.serverKey,
    clientCa: pki.caCert,
  });
  apiKeyFront = await startGrpcTlsFront({
    port: TEMPORAL_API_KEY_FRONT_PORT,
    upstream: inject('infra').temporalAddress,
    cert: pki.serverCert,
    key: pki.serverKey,
    apiKey: TEMPORAL_API_KEY,
  });
  es = await startSecuredElasticsearch({ port: ES_PORT, transportPort: ES_TRANSPORT_PORT, log: (line) => process.stderr.write(`[secured-es] ${line}\n`) });
});

afterAll(async () => {
  await es?.stop();
  await front?.close();
  await apiKeyFront?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  // Credentials never appear in anything verity printed.
  const printed = outputs.join('\n');
  if (es) expect(printed).not.toContain(es.appUser.password);
  if (es) expect(printed).not.toContain(es.apiKey);
  expect(printed).not.toContain(TEMPORAL_API_KEY);
});

describe('verity on a secured Elasticsearch and an mTLS Temporal', () => {
  it('ingests, verifies, sweeps and reports as a user with a password, trusting the CA file', async () => {
    const environment = env(basicWithCaFile());
    const ingest = await verity(['ingest', 'wiki', DEMO_CORPUS], environment);
    expect(ingest.code).toBe(0);
    const verify = await verity(['verify', CLAIM], environment);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/^(SUPPORTED|REFUTED|NOT ENOUGH INFO|NEI)\S*\s+The Eiffel Tower/m);
    const sweep = await verity(['sweep', 'run', sweepConfig('secured-ca-file', 3)], environment);
    expect(sweep.code).toBe(0);
    const report = await verity(['report', 'secured-ca-file', '--json'], environment);
    expect(report.code).toBe(0);
    expect(report.stdout).toContain('secured-ca-file');
  });

  it('verifies, sweeps and reports pinning the CA by its SHA-256 fingerprint', async () => {
    const environment = env(basicWithFingerprint());
    const verify = await verity(['verify', 'Marie Curie won her Nobel Prize in Chemistry in 1921.'], environment);
    expect(verify.code).toBe(0);
    const sweep = await verity(['sweep', 'run', sweepConfig('secured-fingerprint', 2)], environment);
    expect(sweep.code).toBe(0);
    expect((await verity(['report', 'secured-fingerprint', '--json'], environment)).code).toBe(0);
  });

  it('ingests, verifies, sweeps and reports with API keys on both, as on Elastic Cloud and Temporal Cloud', async () => {
    // Temporal through the API-key front (TLS, `authorization: Bearer <key>`), no client certificate.
    const { TEMPORAL_TLS_CLIENT_CERT_PATH: _c, TEMPORAL_TLS_CLIENT_KEY_PATH: _k, ...withoutClientCert } = env({
      ES_API_KEY: es.apiKey,
      ES_CA_CERT: es.caCertFile,
      ES_INDEX_PREFIX: `${prefix}-key`,
    });
    const environment = { ...withoutClientCert, TEMPORAL_ADDRESS: apiKeyFront.address, TEMPORAL_API_KEY };
    const callsBefore = apiKeyFront.calls.length;
    expect((await verity(['ingest', 'wiki', DEMO_CORPUS], environment)).code).toBe(0);
    const verify = await verity(['verify', CLAIM], environment);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/^(SUPPORTED|REFUTED|NOT ENOUGH INFO|NEI)\S*\s+The Eiffel Tower/m);
    expect((await verity(['sweep', 'run', sweepConfig('secured-api-key', 2)], environment)).code).toBe(0);
    const report = await verity(['report', 'secured-api-key', '--json'], environment);
    expect(report.code).toBe(0);
    expect(report.stdout).toContain('secured-api-key');
    const calls = apiKeyFront.calls.slice(callsBefore);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((call) => call.authorization === `Bearer ${TEMPORAL_API_KEY}`)).toBe(true);
  });

  it('refuses a wrong password in one line, naming the user but never the password', async () => {
    const result = await verity(['verify', CLAIM], env({ ...basicWithCaFile(), ES_PASSWORD: 'not-the-password-42' }));
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^verity: Elasticsearch at https:\/\/127\.0\.0\.1:9231 refused user "verity_app" \(ES_USERNAME\/ES_PASSWORD\) \(401/);
    expect(result.stderr).not.toContain('not-the-password-42');
  });

  it('names the missing privilege when a read-only user would create an index', async () => {
    const result = await verity(['ingest', 'wiki', DEMO_CORPUS], env({ ...basicWithCaFile(), ES_USERNAME: es.readOnlyUser.username, ES_INDEX_PREFIX: `${prefix}-ro` }));
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n').filter((line) => line.startsWith('verity:'))).toHaveLength(1);
    expect(result.stderr).toMatch(/denied indices:admin\/create on t-secured-[0-9a-f]+-ro-wiki\S* to user "verity_reader".*needs the index privilege create_index/);
  });

  it('sends ES_API_KEY as an API key and reports an unknown key in one line without the key', async () => {
    const key = Buffer.from('unknown-id:unknown-secret').toString('base64');
    const result = await verity(['verify', CLAIM], env({ ES_API_KEY: key, ES_CA_CERT: es.caCertFile }));
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/refused the API key in ES_API_KEY \(401 .*unable to authenticate with provided credentials/);
    expect(result.stderr).not.toContain(key);
  });

  it('refuses to start a local node when the configured secured one does not answer', async () => {
    const result = await verity(['infra', 'up'], env({ ...basicWithCaFile(), ES_URL: 'https://127.0.0.1:9239' }));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/the configured Elasticsearch at https:\/\/127\.0\.0\.1:9239 does not answer/);
    expect(fs.existsSync(path.join(workDir, '.verity', 'elasticsearch'))).toBe(false);
  });

  it('two `verity worker` processes serve one sweep: every claim verified once, nothing lost', async () => {
    const environment = env(basicWithCaFile());
    const workers = [startVerity(['worker'], environment), startVerity(['worker'], environment)];
    try {
      const sweep = await verity(['sweep', 'run', sweepConfig('secured-two-workers', 8), '--no-embedded-worker'], environment);
      expect(sweep.code).toBe(0);
      const report = JSON.parse((await verity(['report', 'secured-two-workers', '--json'], environment)).stdout) as { claims?: unknown[] };
      const rows = (report.claims ?? []) as Array<{ claimId: string; status: string }>;
      expect(rows).toHaveLength(8);
      expect(new Set(rows.map((row) => row.claimId)).size).toBe(8);
      expect(rows.every((row) => row.status === 'verdict')).toBe(true);
    } finally {
      for (const worker of workers) worker.kill('SIGTERM');
      await Promise.all(workers.map((worker) => new Promise((resolve) => (worker.exitCode !== null ? resolve(null) : worker.once('exit', resolve)))));
    }
  });
});
