/**
 * A TLS-terminating gRPC front for the Temporal dev server (which has no TLS options): HTTP/2 over
 * TLS on 127.0.0.1, optionally requiring a client certificate (mTLS) or an API key sent as Temporal
 * Cloud expects it (`authorization: Bearer <key>`), forwarding every call to the plain frontend.
 * It records the path and the authorization metadata of each call it receives.
 */
import fs from 'node:fs';
import http2 from 'node:http2';
import type { TLSSocket } from 'node:tls';

export interface GrpcTlsFrontOptions {
  port: number;
  /** The plain Temporal frontend, host:port. */
  upstream: string;
  cert: string;
  key: string;
  /** PEM file of the CA whose client certificates are required (mTLS); none: server-only TLS. */
  clientCa?: string;
  /** Calls without `authorization: Bearer <apiKey>` fail with UNAUTHENTICATED, as on Temporal Cloud. */
  apiKey?: string;
}

export interface RecordedCall {
  path: string;
  authorization?: string;
  /** Subject CN of the client certificate presented, if any. */
  clientCertificate?: string;
}

export interface GrpcTlsFront {
  address: string;
  calls: RecordedCall[];
  close(): Promise<void>;
}

const GRPC_UNAUTHENTICATED = '16';

export async function startGrpcTlsFront(options: GrpcTlsFrontOptions): Promise<GrpcTlsFront> {
  const calls: RecordedCall[] = [];
  let upstream: http2.ClientHttp2Session | undefined;
  const upstreamSession = () => {
    if (!upstream || upstream.closed || upstream.destroyed) {
      upstream = http2.connect(`http://${options.upstream}`);
      upstream.on('error', () => undefined);
    }
    return upstream;
  };
  const server = http2.createSecureServer({
    cert: fs.readFileSync(options.cert),
    key: fs.readFileSync(options.key),
    ALPNProtocols: ['h2'],
    ...(options.clientCa ? { ca: fs.readFileSync(options.clientCa), requestCert: true, rejectUnauthorized: true } : {}),
  });
  server.on('stream', (stream, headers) => {
    const socket = stream.session?.socket as TLSSocket | undefined;
    const authorization = typeof headers.authorization === 'string' ? headers.authorization : undefined;
    const subject = socket?.getPeerCertificate?.()?.subject?.CN;
    calls.push({
      path: String(headers[':path']),
      ...(authorization ? { authorization } : {}),
      ...(subject ? { clientCertificate: String(subject) } : {}),
    });
    if (options.apiKey && authorization !== `Bearer ${options.apiKey}`) {
      stream.respond(
        { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': GRPC_UNAUTHENTICATED, 'grpc-message': 'Request unauthorized: invalid API key' },
        { endStream: true },
      );
      return;
    }
    forward(stream, headers, upstreamSession());
  });
  server.on('sessionError', () => undefined);
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  return {
    address: `127.0.0.1:${options.port}`,
    calls,
    async close() {
      upstream?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const session of sessions) session.destroy();
      });
    },
  };
}

/** Forwards one call: request headers and body up, response headers, body and trailers down. */
function forward(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, session: http2.ClientHttp2Session): void {
  const outgoing: http2.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name === ':scheme' || name === ':authority') continue;
    outgoing[name] = value;
  }
  const request = session.request(outgoing);
  let trailers: http2.IncomingHttpHeaders = {};
  request.on('response', (response) => {
    if (stream.destroyed) return;
    // A trailers-only answer (an error status) carries grpc-status in its headers and ends there.
    const trailersOnly = response['grpc-status'] !== undefined;
    stream.respond(response, trailersOnly ? { endStream: true } : { waitForTrailers: true });
    if (!trailersOnly) request.pipe(stream);
  });
  request.on('trailers', (received) => (trailers = received));
  stream.on('wantTrailers', () => stream.sendTrailers(withoutPseudoHeaders(trailers)));
  request.on('error', () => stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR));
  stream.on('error', () => request.close(http2.constants.NGHTTP2_CANCEL));
  stream.on('close', () => {
    if (!request.closed) request.close(http2.constants.NGHTTP2_CANCEL);
  });
  stream.pipe(request);
}

function withoutPseudoHeaders(headers: http2.IncomingHttpHeaders): http2.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith(':')));
}
