import tls from 'node:tls';
import type { TemporalConnection } from '../config/temporal-connection';

/**
 * Why a TLS handshake with the Temporal frontend fails, or undefined when it succeeds. grpc-js only
 * says "Failed to connect before the deadline"; this handshake, made with the same CA, server name and
 * client certificate, names the reason (unknown issuer, certificate required, …).
 */
export async function tlsHandshakeProblem(connection: TemporalConnection, timeoutMs = 3_000): Promise<string | undefined> {
  const settings = connection.tls === true || connection.tls === undefined ? {} : connection.tls;
  const { host, port } = splitAddress(connection.address);
  const servername = settings.serverNameOverride ?? (/^[\d.]+$|:/.test(host) ? undefined : host);
  return new Promise((resolve) => {
    const socket = tls.connect({
      host,
      port,
      ALPNProtocols: ['h2'],
      ...(servername ? { servername } : {}),
      ...(settings.serverRootCACertificate ? { ca: Buffer.from(settings.serverRootCACertificate) } : {}),
      ...(settings.clientCertPair ? { cert: Buffer.from(settings.clientCertPair.crt), key: Buffer.from(settings.clientCertPair.key) } : {}),
      ...(settings.serverNameOverride ? { checkServerIdentity: (_host, cert) => tls.checkServerIdentity(settings.serverNameOverride as string, cert) } : {}),
    });
    const finish = (problem: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(problem);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    socket.once('error', (err) => finish(readableTlsError(err.message)));
    // TLS 1.3 servers reject a missing client certificate after the client's handshake is done.
    socket.once('secureConnect', () => setTimeout(() => finish(undefined), 300));
  });
}

/** OpenSSL's "…:tlsv13 alert certificate required:…" → "the server sent the TLS alert \"certificate required\"". */
export function readableTlsError(message: string): string {
  const alert = /alert ([a-z ]+?)(?::|$)/i.exec(message)?.[1];
  return alert ? `the server sent the TLS alert "${alert}"` : message;
}

function splitAddress(address: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(address);
  return { host: match?.[1] ?? match?.[2] ?? address, port: Number(match?.[3] ?? 7233) };
}
