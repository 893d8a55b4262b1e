import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config';
import { cloudIdUrl, isSecuredOrRemote } from '../../src/config/es-connection';
import { isSecuredOrRemoteTemporal } from '../../src/config/temporal-connection';
import { describeEsAccessError } from '../../src/es/access-errors';
import { esClientOptions } from '../../src/es/client';
import { workflowUiUrl } from '../../src/client/temporal';

/** No temporal.toml of the machine's user leaks into these tests. */
const NO_PROFILE = { TEMPORAL_CONFIG_FILE: path.join(os.tmpdir(), 'verity-no-such-temporal.toml') };

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'verity-connection-'));
}

describe('Elasticsearch connection settings', () => {
  it('moves user info out of ES_URL into basic auth, so the URL is safe to print', () => {
    const config = loadConfig({ ...NO_PROFILE, ES_URL: 'https://alice:s3cr%40t@es.example.org:9243/' });
    expect(config.elasticsearch.url).toBe('https://es.example.org:9243');
    expect(config.elasticsearch.auth).toEqual({ kind: 'basic', username: 'alice', password: 's3cr@t' });
    expect(JSON.stringify(config.elasticsearch.url)).not.toContain('s3cr');
  });

  it('reads an API key, a CA file or fingerprint, and refuses contradictions in one error', () => {
    const withKey = loadConfig({ ...NO_PROFILE, ES_URL: 'https://127.0.0.1:9230', ES_API_KEY: 'a2V5', ES_CA_CERT: '/etc/ca.crt' });
    expect(withKey.elasticsearch).toMatchObject({ auth: { kind: 'apiKey', apiKey: 'a2V5' }, caCertFile: '/etc/ca.crt' });
    expect(() => loadConfig({ ...NO_PROFILE, ES_API_KEY: 'k', ES_USERNAME: 'u', ES_PASSWORD: 'p', ES_CA_FINGERPRINT: 'zz' })).toThrow(
      /ES_API_KEY.*ES_CA_FINGERPRINT/,
    );
    expect(() => loadConfig({ ...NO_PROFILE, ES_USERNAME: 'u' })).toThrow(ConfigError);
  });

  it('derives the URL of an Elastic Cloud id the way the client does', () => {
    const id = `verity:${Buffer.from('us-east-1.aws.found.io:443$abc123$def456').toString('base64')}`;
    expect(cloudIdUrl(id)).toBe('https://abc123.us-east-1.aws.found.io');
    const config = loadConfig({ ...NO_PROFILE, ES_CLOUD_ID: id, ES_API_KEY: 'k' });
    expect(config.elasticsearch.url).toBe('https://abc123.us-east-1.aws.found.io');
    expect(esClientOptions(config.elasticsearch)).toMatchObject({ cloud: { id }, auth: { apiKey: 'k' } });
    expect(() => loadConfig({ ...NO_PROFILE, ES_CLOUD_ID: 'nonsense' })).toThrow(/ES_CLOUD_ID/);
  });

  it('pins a CA fingerprint instead of validating against the system store', () => {
    const fingerprint = 'AA:'.repeat(31) + 'AA';
    const options = esClientOptions(loadConfig({ ...NO_PROFILE, ES_URL: 'https://127.0.0.1:9230', ES_CA_FINGERPRINT: fingerprint }).elasticsearch);
    expect(options).toMatchObject({ caFingerprint: fingerprint, tls: { rejectUnauthorized: false } });
  });

  it('counts only a plain local http URL as unsecured', () => {
    expect(isSecuredOrRemote(loadConfig(NO_PROFILE).elasticsearch)).toBe(false);
    expect(isSecuredOrRemote(loadConfig({ ...NO_PROFILE, ES_URL: 'http://127.0.0.1:9231' }).elasticsearch)).toBe(false);
    expect(isSecuredOrRemote(loadConfig({ ...NO_PROFILE, ES_URL: 'https://127.0.0.1:9231' }).elasticsearch)).toBe(true);
    expect(isSecuredOrRemote(loadConfig({ ...NO_PROFILE, ES_URL: 'http://es.internal:9200' }).elasticsearch)).toBe(true);
    expect(isSecuredOrRemote(loadConfig({ ...NO_PROFILE, ES_API_KEY: 'k' }).elasticsearch)).toBe(true);
  });

  it('names the missing privilege of a 403 and the refused credential of a 401, never the secret', () => {
    const connection = loadConfig({ ...NO_PROFILE, ES_URL: 'https://127.0.0.1:9230', ES_USERNAME: 'reader', ES_PASSWORD: 'hunter2' }).elasticsearch;
    const denied = describeEsAccessError(
      403,
      'action [indices:admin/create] is unauthorized for user [reader] with effective roles [reader] on indices [v-wiki], ' +
        'this action is granted by the index privileges [create_index,manage,all]',
      connection,
    );
    expect(denied).toBe(
      'Elasticsearch at https://127.0.0.1:9230 denied indices:admin/create on v-wiki to user "reader" (ES_USERNAME/ES_PASSWORD): ' +
        'it needs the index privilege create_index (or manage, all)',
    );
    const refused = describeEsAccessError(401, 'unable to authenticate user [reader] for REST request [/_cluster/health]', connection);
    expect(refused).toMatch(/refused user "reader".*401/);
    expect(denied + refused).not.toContain('hunter2');
  });
});

describe('Temporal connection settings', () => {
  it('defaults to the local dev server and its UI', () => {
    const config = loadConfig(NO_PROFILE);
    expect(config.temporal).toMatchObject({ address: '127.0.0.1:7233', namespace: 'default', uiUrl: 'http://127.0.0.1:8233' });
    expect(config.temporal.tls).toBeUndefined();
    expect(isSecuredOrRemoteTemporal(config.temporal)).toBe(false);
  });

  it('reads a temporal.toml profile like the Temporal CLI, with TEMPORAL_* variables winning', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'ca.pem'), 'CA-PEM');
    fs.writeFileSync(path.join(dir, 'client.pem'), 'CLIENT-PEM');
    fs.writeFileSync(path.join(dir, 'client.key'), 'CLIENT-KEY');
    const toml = path.join(dir, 'temporal.toml');
    fs.writeFileSync(
      toml,
      [
        '[profile.prod]',
        'address = "prod.example.org:7233"',
        'namespace = "verity-prod"',
        '[profile.prod.tls]',
        `server_ca_cert_path = "${path.join(dir, 'ca.pem')}"`,
        `client_cert_path = "${path.join(dir, 'client.pem')}"`,
        `client_key_path = "${path.join(dir, 'client.key')}"`,
        'server_name = "temporal.internal"',
        '',
      ].join('\n'),
    );
    const config = loadConfig({ TEMPORAL_CONFIG_FILE: toml, TEMPORAL_PROFILE: 'prod', TEMPORAL_NAMESPACE: 'override' });
    expect(config.temporal.address).toBe('prod.example.org:7233');
    expect(config.temporal.namespace).toBe('override');
    const tls = config.temporal.tls as { serverNameOverride?: string; serverRootCACertificate?: Buffer; clientCertPair?: { crt: Buffer; key: Buffer } };
    expect(tls.serverNameOverride).toBe('temporal.internal');
    expect(Buffer.from(tls.serverRootCACertificate ?? []).toString()).toBe('CA-PEM');
    expect(Buffer.from(tls.clientCertPair?.key ?? []).toString()).toBe('CLIENT-KEY');
    // A self-hosted server's UI is unknown unless TEMPORAL_UI_URL says where it is.
    expect(config.temporal.uiUrl).toBeUndefined();
    expect(workflowUiUrl(config, 'wf')).toBeUndefined();
    expect(() => loadConfig({ TEMPORAL_CONFIG_FILE: toml, TEMPORAL_PROFILE: 'staging' })).toThrow(/Profile 'staging' not found/);
  });

  it('turns TLS on for an API key and links Temporal Cloud workflows to the Cloud UI', () => {
    const config = loadConfig({ ...NO_PROFILE, TEMPORAL_ADDRESS: 'verity.a1b2c.tmprl.cloud:7233', TEMPORAL_NAMESPACE: 'verity.a1b2c', TEMPORAL_API_KEY: 'key' });
    expect(config.temporal).toMatchObject({ tls: true, apiKey: 'key' });
    expect(workflowUiUrl(config, 'verify/x y')).toBe('https://cloud.temporal.io/namespaces/verity.a1b2c/workflows/verify%2Fx%20y');
    const custom = loadConfig({ ...NO_PROFILE, TEMPORAL_ADDRESS: 'temporal.internal:7233', TEMPORAL_UI_URL: 'https://temporal-ui.internal/' });
    expect(workflowUiUrl(custom, 'wf')).toBe('https://temporal-ui.internal/namespaces/default/workflows/wf');
  });

  it('reports an unreadable certificate file as one configuration error', () => {
    expect(() => loadConfig({ ...NO_PROFILE, TEMPORAL_TLS_SERVER_CA_CERT_PATH: '/nonexistent/ca.pem' })).toThrow(ConfigError);
  });
});
