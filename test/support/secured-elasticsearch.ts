/**
 * A second, secured Elasticsearch node for tests, from the same distribution `infra` installs:
 * xpack security on, HTTP TLS with a CA made for the test, file-realm users made by
 * `elasticsearch-users` (one with verity's minimal role, one read-only), and an API key of the
 * app user. Heap 512 MB; `stop()` stops and removes it.
 *
 * API keys live in the .security index, whose mappings need analysis components of the
 * analysis-common module that the integ-test-zip lacks (and that no registry publishes for 8.x).
 * The node therefore runs from a private home (the distribution linked in) with a small test plugin,
 * compiled here with javac against the distribution's own jars, that provides exactly those
 * components (es-test-analysis/VerityTestAnalysisPlugin.java).
 */
import { X509Certificate, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ES_SYSTEM_USER, ES_VERSION, ensureSystemUser, esLayout, installDistribution, renderElasticsearchYml, resolveJavaHome, startNode } from '../../infra/elasticsearch';
import { run, stopPidFile } from '../../infra/support';
import { loadConfig } from '../../src/config/config';
import { createEsClient } from '../../src/es/client';
import { projectRoot } from '../../src/project-root';
import { createTestPki } from './test-pki';

export interface SecuredElasticsearch {
  url: string;
  caCertFile: string;
  caFingerprint: string;
  /** Has verity's minimal role (VERITY_ES_ROLE) on indices `t-*`. */
  appUser: { username: string; password: string };
  /** Read-only on `t-*`: creating an index must fail with a 403 naming create_index. */
  readOnlyUser: { username: string; password: string };
  /** Encoded API key of appUser (ES_API_KEY), limited to appUser's privileges. */
  apiKey: string;
  stop(): Promise<void>;
}

/** The privileges verity needs (README "Running on a cluster"): nothing cluster-wide beyond monitor. */
export const VERITY_ES_ROLE = {
  cluster: ['monitor', 'manage_own_api_key'],
  indices: [{ names: ['t-*'], privileges: ['create_index', 'view_index_metadata', 'read', 'write', 'maintenance'] }],
};

const READ_ONLY_ROLE = { cluster: ['monitor'], indices: [{ names: ['t-*'], privileges: ['read', 'view_index_metadata'] }] };

function rolesYml(): string {
  const role = (name: string, definition: typeof VERITY_ES_ROLE) =>
    [
      `${name}:`,
      `  cluster: [${definition.cluster.join(', ')}]`,
      '  indices:',
      ...definition.indices.map((entry) => `    - names: [${entry.names.map((n) => `'${n}'`).join(', ')}]\n      privileges: [${entry.privileges.join(', ')}]`),
    ].join('\n');
  return `${role('verity_app', VERITY_ES_ROLE)}\n${role('verity_reader', READ_ONLY_ROLE)}\n`;
}

const TEST_PLUGIN_SOURCE = path.join(projectRoot(), 'test', 'support', 'es-test-analysis', 'VerityTestAnalysisPlugin.java');

/**
 * A home of the node's own: bin, lib and modules linked from the shared distribution, and a
 * plugins directory holding the test analysis plugin (the shared distribution stays untouched).
 */
async function privateHomeWithTestPlugin(distributionHome: string, nodeDir: string, javaHome: string): Promise<string> {
  const home = path.join(nodeDir, 'home');
  fs.mkdirSync(home, { recursive: true });
  for (const entry of ['bin', 'lib', 'modules']) fs.symlinkSync(path.join(distributionHome, entry), path.join(home, entry));
  const pluginDir = path.join(home, 'plugins', 'verity-test-analysis');
  const classes = path.join(nodeDir, 'plugin-classes');
  fs.mkdirSync(pluginDir, { recursive: true });
  const javac = path.join(javaHome, 'bin', 'javac');
  if (!fs.existsSync(javac)) throw new Error(`the secured test node needs a JDK (javac) to build its analysis plugin; ${javac} does not exist`);
  await run(javac, ['-nowarn', '-d', classes, '-cp', path.join(distributionHome, 'lib', '*'), TEST_PLUGIN_SOURCE], { timeoutMs: 180_000 });
  await run(path.join(javaHome, 'bin', 'jar'), ['cf', path.join(pluginDir, 'verity-test-analysis.jar'), '-C', classes, '.'], { timeoutMs: 120_000 });
  fs.writeFileSync(
    path.join(pluginDir, 'plugin-descriptor.properties'),
    [
      'description=Test stand-in for analysis-common (pattern_capture, lowercase, unique, uax_url_email)',
      'version=1.0',
      'name=verity-test-analysis',
      'classname=verity.test.VerityTestAnalysisPlugin',
      'java.version=17',
      `elasticsearch.version=${ES_VERSION}`,
      '',
    ].join('\n'),
  );
  return home;
}

export async function startSecuredElasticsearch(options: { port: number; transportPort: number; log?: (line: string) => void }): Promise<SecuredElasticsearch> {
  const log = options.log ?? (() => undefined);
  const base = loadConfig();
  const javaHome = await resolveJavaHome(base);
  const sharedLayout = esLayout(base.dataDir, options.port);
  await installDistribution(sharedLayout, log);
  await stopPidFile(sharedLayout.pidFile, 'elasticsearch', 30_000);
  fs.rmSync(sharedLayout.nodeDir, { recursive: true, force: true });
  const layout = { ...sharedLayout, home: await privateHomeWithTestPlugin(sharedLayout.home, sharedLayout.nodeDir, javaHome) };
  fs.cpSync(path.join(sharedLayout.home, 'config'), layout.configDir, { recursive: true });
  fs.mkdirSync(layout.dataDir, { recursive: true });
  fs.mkdirSync(layout.logsDir, { recursive: true });
  const env = { ...process.env, ES_JAVA_HOME: javaHome, ES_PATH_CONF: layout.configDir };
  const tool = (name: string, args: string[]) => run(path.join(layout.home, 'bin', name), args, { env, cwd: layout.home, timeoutMs: 120_000 });

  // A CA made for this test and an HTTP certificate for 127.0.0.1 signed by it (openssl: ~0.2 s,
  // where each elasticsearch-certutil run starts a JVM). The node serves the chain, CA included,
  // as Elasticsearch's own auto-configuration does, so that clients can pin the CA by fingerprint.
  const certs = path.join(layout.configDir, 'certs');
  const pki = await createTestPki(certs);
  fs.writeFileSync(path.join(certs, 'http-chain.crt'), fs.readFileSync(pki.serverCert, 'utf8') + fs.readFileSync(pki.caCert, 'utf8'));

  // One elasticsearch-users run (a JVM); the read-only user gets the same password hash.
  const password = randomBytes(12).toString('hex');
  const appUser = { username: 'verity_app', password };
  const readOnlyUser = { username: 'verity_reader', password };
  fs.writeFileSync(path.join(layout.configDir, 'roles.yml'), rolesYml());
  await tool('elasticsearch-users', ['useradd', appUser.username, '-p', password, '-r', 'verity_app']);
  const usersFile = path.join(layout.configDir, 'users');
  const hash = fs.readFileSync(usersFile, 'utf8').split('\n').find((line) => line.startsWith(`${appUser.username}:`))?.slice(appUser.username.length + 1);
  fs.appendFileSync(usersFile, `${readOnlyUser.username}:${hash}\n`);
  fs.appendFileSync(path.join(layout.configDir, 'users_roles'), `verity_reader:${readOnlyUser.username}\n`);

  fs.writeFileSync(
    path.join(layout.configDir, 'elasticsearch.yml'),
    renderElasticsearchYml({
      port: options.port,
      dataDir: layout.dataDir,
      logsDir: layout.logsDir,
      extra: {
        'cluster.name': 'verity-secured',
        'node.name': 'verity-secured-1',
        'transport.port': options.transportPort,
        'xpack.ml.enabled': false,
        'xpack.security.enabled': true,
        'xpack.security.authc.api_key.enabled': true,
        'xpack.security.http.ssl.enabled': true,
        'xpack.security.http.ssl.key': 'certs/server.key',
        'xpack.security.http.ssl.certificate': 'certs/http-chain.crt',
        'xpack.security.http.ssl.certificate_authorities': 'certs/ca.crt',
      },
    }),
  );
  if (layout.runAs) {
    await ensureSystemUser(ES_SYSTEM_USER);
    await run('chown', ['-R', `${layout.runAs}:`, layout.nodeDir]);
  }
  const caCertFile = pki.caCert;
  const url = `https://127.0.0.1:${options.port}`;
  const config = loadConfig({
    ...process.env,
    ES_URL: url,
    ES_USERNAME: appUser.username,
    ES_PASSWORD: appUser.password,
    ES_CA_CERT: caCertFile,
    VERITY_ES_HEAP_MB: '512',
  });
  // A loaded CI machine may take minutes to start a JVM node; the local `infra` keeps its 2 minutes.
  await startNode(config, layout, javaHome, log, 360_000);

  const es = createEsClient(config.elasticsearch);
  let apiKey: string;
  try {
    apiKey = (await es.security.createApiKey({ name: 'verity-test' })).encoded;
  } finally {
    await es.close();
  }
  return {
    url,
    caCertFile,
    caFingerprint: new X509Certificate(fs.readFileSync(caCertFile)).fingerprint256,
    appUser,
    readOnlyUser,
    apiKey,
    async stop() {
      await stopPidFile(layout.pidFile, 'elasticsearch', 60_000);
      fs.rmSync(layout.nodeDir, { recursive: true, force: true });
    },
  };
}
