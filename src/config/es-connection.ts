/**
 * How verity reaches Elasticsearch: a URL or an Elastic Cloud id, optional credentials (an API key
 * or a user and password) and optional trust (a CA file or a CA fingerprint). Credentials live
 * only here and in the client built from it; `url` never carries them.
 */

export type EsAuth = { kind: 'apiKey'; apiKey: string } | { kind: 'basic'; username: string; password: string };

export interface EsConnection {
  /** Where requests go, without user info (safe to print). From ES_CLOUD_ID when that is set. */
  url: string;
  cloudId?: string;
  auth?: EsAuth;
  /** PEM file of the CA that signed the server's HTTP certificate. */
  caCertFile?: string;
  /** SHA-256 fingerprint of that CA (hex, colons optional), instead of the file. */
  caFingerprint?: string;
}

export interface EsConnectionVariables {
  ES_URL: string;
  ES_CLOUD_ID?: string;
  ES_API_KEY?: string;
  ES_USERNAME?: string;
  ES_PASSWORD?: string;
  ES_CA_CERT?: string;
  ES_CA_FINGERPRINT?: string;
}

/**
 * Builds the connection from the ES_* variables; returns the problems instead when they
 * contradict each other (the caller reports them with every other configuration problem).
 */
export function esConnectionFromVariables(variables: EsConnectionVariables): EsConnection | { problems: string[] } {
  const problems: string[] = [];
  const parsed = new URL(variables.ES_URL);
  const userFromUrl = decodeURIComponent(parsed.username);
  const passwordFromUrl = decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  const username = variables.ES_USERNAME ?? (userFromUrl || undefined);
  const password = variables.ES_PASSWORD ?? (passwordFromUrl || undefined);

  let auth: EsAuth | undefined;
  if (variables.ES_API_KEY !== undefined) {
    if (username !== undefined) problems.push('ES_API_KEY: set either ES_API_KEY or ES_USERNAME/ES_PASSWORD, not both');
    auth = { kind: 'apiKey', apiKey: variables.ES_API_KEY };
  } else if (username !== undefined || password !== undefined) {
    if (username === undefined || password === undefined) problems.push('ES_USERNAME: ES_USERNAME and ES_PASSWORD go together');
    else auth = { kind: 'basic', username, password };
  }
  if (variables.ES_CA_CERT !== undefined && variables.ES_CA_FINGERPRINT !== undefined) {
    problems.push('ES_CA_CERT: set either ES_CA_CERT or ES_CA_FINGERPRINT, not both');
  }
  if (variables.ES_CA_FINGERPRINT !== undefined && !/^([0-9a-f]{2}:?){32}$/i.test(variables.ES_CA_FINGERPRINT)) {
    problems.push('ES_CA_FINGERPRINT: expected a SHA-256 fingerprint (64 hex digits, colons optional)');
  }
  let url = parsed.toString().replace(/\/$/, '');
  if (variables.ES_CLOUD_ID !== undefined) {
    const cloudUrl = cloudIdUrl(variables.ES_CLOUD_ID);
    if (cloudUrl === undefined) problems.push('ES_CLOUD_ID: not an Elastic Cloud id (name:base64)');
    else url = cloudUrl;
  }
  if (problems.length > 0) return { problems };
  return {
    url,
    ...(variables.ES_CLOUD_ID !== undefined ? { cloudId: variables.ES_CLOUD_ID } : {}),
    ...(auth ? { auth } : {}),
    ...(variables.ES_CA_CERT !== undefined ? { caCertFile: variables.ES_CA_CERT } : {}),
    ...(variables.ES_CA_FINGERPRINT !== undefined ? { caFingerprint: variables.ES_CA_FINGERPRINT } : {}),
  };
}

/**
 * The Elasticsearch URL an Elastic Cloud id stands for: `name:base64(host[:port]$es-uuid$kibana-uuid)`
 * → `https://es-uuid.host[:port]` (what the Elasticsearch client connects to).
 */
export function cloudIdUrl(cloudId: string): string | undefined {
  const encoded = cloudId.slice(cloudId.indexOf(':') + 1);
  const [hostAndPort, esUuid] = Buffer.from(encoded, 'base64').toString('utf8').split('$');
  if (!hostAndPort || !esUuid || !/^[a-z0-9.-]+(:\d+)?$/i.test(hostAndPort) || !/^[a-z0-9-]+$/i.test(esUuid)) return undefined;
  const [host, port] = hostAndPort.split(':');
  return `https://${esUuid}.${host}${port && port !== '443' ? `:${port}` : ''}`;
}

/** True when anything beyond a plain local http URL is configured (then verity never starts a local node). */
export function isSecuredOrRemote(connection: EsConnection): boolean {
  if (connection.cloudId || connection.auth || connection.caCertFile || connection.caFingerprint) return true;
  const { protocol, hostname } = new URL(connection.url);
  return protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
}

/** Which credential the connection presents, for error messages (never the secret itself). */
export function describeEsCredential(connection: EsConnection): string {
  if (!connection.auth) return 'no credentials (set ES_API_KEY, or ES_USERNAME and ES_PASSWORD)';
  return connection.auth.kind === 'apiKey' ? 'the API key in ES_API_KEY' : `user "${connection.auth.username}" (ES_USERNAME/ES_PASSWORD)`;
}
