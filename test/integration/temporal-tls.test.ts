/**
 * Temporal over TLS, mTLS and Temporal Cloud-style API keys. The dev server has no TLS options, so a
 * TLS-terminating gRPC front (test/support/grpc-tls-front.ts) serves it on 127.0.0.1; the client
 * (grpc-js) and the workers' NativeConnection (Rust core) connect through it with the settings
 * verity reads from TEMPORAL_* variables.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectTemporal } from '../../src/client/temporal';
import { loadConfig } from '../../src/config/config';
import { connectNative } from '../../src/worker/native-connection';
import { type GrpcTlsFront, startGrpcTlsFront } from '../support/grpc-tls-front';
import { TEST_SERVER_NAME, type TestPki, createTestPki } from '../support/test-pki';

const PORTS = { tls: 7263, mtls: 7264, apiKey: 7265 };
const API_KEY = 'test-api-key-7f3a';

let pki: TestPki;
const fronts: Record<keyof typeof PORTS, GrpcTlsFront> = {} as never;

function configFor(front: GrpcTlsFront, variables: Record<string, string>) {
  return loadConfig({
    TEMPORAL_CONFIG_FILE: path.join(pki.dir, 'no-temporal.toml'),
    TEMPORAL_ADDRESS: front.address,
    TEMPORAL_NAMESPACE: 'default',
    ...variables,
  });
}

/** Connects the client and a native (worker) connection; both must reach the server through the front. */
async function connectBoth(front: GrpcTlsFront, variables: Record<string, string>): Promise<void> {
  const config = configFor(front, variables);
  const client = await connectTemporal(config);
  try {
    expect((await client.workflowService.getSystemInfo({})).serverVersion).toBeTruthy();
  } finally {
    await client.connection.close();
  }
  const native = await connectNative(config.temporal);
  await native.close();
}

async function connectError(front: GrpcTlsFront, variables: Record<string, string>, which: 'client' | 'worker'): Promise<string> {
  const config = configFor(front, variables);
  try {
    if (which === 'client') await (await connectTemporal(config)).connection.close();
    else await (await connectNative(config.temporal)).close();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`the ${which} connected to ${front.address} although it should not`);
}

beforeAll(async () => {
  pki = await createTestPki(fs.mkdtempSync(path.join(os.tmpdir(), 'verity-temporal-tls-')));
  const upstream = inject('infra').temporalAddress;
  const common = { upstream, cert: pki.serverCert, key: pki.serverKey };
  fronts.tls = await startGrpcTlsFront({ ...common, port: PORTS.tls });
  fronts.mtls = await startGrpcTlsFront({ ...common, port: PORTS.mtls, clientCa: pki.caCert });
  fronts.apiKey = await startGrpcTlsFront({ ...common, port: PORTS.apiKey, apiKey: API_KEY });
});

afterAll(async () => {
  await Promise.all(Object.values(fronts).map((front) => front?.close()));
  if (pki) fs.rmSync(pki.dir, { recursive: true, force: true });
});

describe('Temporal behind TLS', () => {
  it('connects with server-only TLS and the server CA, also under an overridden server name', async () => {
    await connectBoth(fronts.tls, { TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.caCert });
    await connectBoth(fronts.tls, { TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.caCert, TEMPORAL_TLS_SERVER_NAME: TEST_SERVER_NAME });
    expect(fronts.tls.calls.length).toBeGreaterThan(0);
  });

  it('connects with mTLS, presenting the client certificate', async () => {
    await connectBoth(fronts.mtls, {
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.caCert,
      TEMPORAL_TLS_CLIENT_CERT_PATH: pki.clientCert,
      TEMPORAL_TLS_CLIENT_KEY_PATH: pki.clientKey,
    });
    expect(fronts.mtls.calls.some((call) => call.clientCertificate === 'client')).toBe(true);
  });

  it('fails with one line naming TLS when the CA is wrong', async () => {
    for (const which of ['client', 'worker'] as const) {
      const message = await connectError(fronts.tls, { TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.otherCaCert }, which);
      expect(message).not.toContain('\n');
      expect(message).toMatch(/^TLS with Temporal at 127\.0\.0\.1:7263 failed with a server CA, no client certificate .*TEMPORAL_TLS_SERVER_CA_CERT_PATH/);
    }
  });

  it('fails with one line when the server requires a client certificate and none is given', async () => {
    for (const which of ['client', 'worker'] as const) {
      const message = await connectError(fronts.mtls, { TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.caCert }, which);
      expect(message).not.toContain('\n');
      expect(message).toMatch(/^(TLS with Temporal at 127\.0\.0\.1:7264 failed with a server CA, no client certificate|Temporal at 127\.0\.0\.1:7264 refused)/);
      expect(message).toMatch(/certificate required.*TEMPORAL_TLS_CLIENT_CERT_PATH/);
    }
  });
});

describe('Temporal Cloud API keys', () => {
  it('sends the key as `authorization: Bearer <key>` over TLS from the client and the workers', async () => {
    const before = fronts.apiKey.calls.length;
    await connectBoth(fronts.apiKey, { TEMPORAL_API_KEY: API_KEY, TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.caCert });
    const calls = fronts.apiKey.calls.slice(before);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.every((call) => call.authorization === `Bearer ${API_KEY}`)).toBe(true);
  });

  it('fails with one line when the key is refused, without printing the key', async () => {
    for (const which of ['client', 'worker'] as const) {
      const message = await connectError(fronts.apiKey, { TEMPORAL_API_KEY: 'wrong-key-0000', TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.caCert }, which);
      expect(message).not.toContain('\n');
      expect(message).toMatch(/^Temporal at 127\.0\.0\.1:7265 refused the credentials .*TEMPORAL_API_KEY/);
      expect(message).not.toContain('wrong-key-0000');
    }
  });
});
