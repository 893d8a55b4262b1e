/**
 * Throw-away certificates for TLS tests, made with the openssl CLI: a CA, a server certificate for
 * 127.0.0.1 / localhost / temporal.verity.test, a client certificate, and an unrelated second CA.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const openssl = (args: string[], cwd: string) => promisify(execFile)('openssl', args, { cwd });

export interface TestPki {
  dir: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** A CA that signed nothing here: trusting it must fail. */
  otherCaCert: string;
}

export const TEST_SERVER_NAME = 'temporal.verity.test';

async function makeCa(dir: string, name: string): Promise<void> {
  await openssl(
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', `/CN=${name}`,
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
      '-keyout', `${name}.key`, '-out', `${name}.crt`],
    dir,
  );
}

async function makeLeaf(dir: string, name: string, ca: string, extensions: string): Promise<void> {
  fs.writeFileSync(path.join(dir, `${name}.ext`), extensions);
  await openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.csr`], dir);
  await openssl(
    ['x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-days', '2', '-extfile', `${name}.ext`, '-out', `${name}.crt`],
    dir,
  );
}

export async function createTestPki(dir: string): Promise<TestPki> {
  fs.mkdirSync(dir, { recursive: true });
  await Promise.all([makeCa(dir, 'ca'), makeCa(dir, 'other-ca')]);
  await makeLeaf(
    dir,
    'server',
    'ca',
    `basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost,DNS:${TEST_SERVER_NAME}\n`,
  );
  await makeLeaf(dir, 'client', 'ca', 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n');
  const file = (name: string) => path.join(dir, name);
  return {
    dir,
    caCert: file('ca.crt'),
    serverCert: file('server.crt'),
    serverKey: file('server.key'),
    clientCert: file('client.crt'),
    clientKey: file('client.key'),
    otherCaCert: file('other-ca.crt'),
  };
}
