import net from 'node:net';

/** A connection the proxy accepted while hanging: when it opened and when the client gave up. */
export interface HungConnection {
  openedAt: number;
  closedAt?: number;
}

export interface TcpProxy {
  url: string;
  /** Closes the port and drops every connection: clients see connection refused until `up()`. */
  down(): Promise<void>;
  /** Forwards connections to the target again. */
  up(): Promise<void>;
  /** Accepts connections and never answers (a hanging server); `hung` records each of them. */
  hang(): Promise<void>;
  readonly hung: readonly HungConnection[];
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1:`port` in front of `target` (the chaos proof takes "Elasticsearch" down
 * through it without touching the shared node; tests make an LLM endpoint unreachable or hang).
 * Port 0 picks a free port, kept across `down()` and `up()`.
 */
export async function startTcpProxy(port: number, target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const hung: HungConnection[] = [];
  let server: net.Server | undefined;
  let hanging = false;
  let boundPort = port;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const accept = (client: net.Socket) => {
    track(client);
    if (hanging) {
      const record: HungConnection = { openedAt: Date.now() };
      hung.push(record);
      client.resume();
      client.once('close', () => (record.closedAt = Date.now()));
      client.on('error', () => undefined);
      return;
    }
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  };
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = net.createServer(accept);
      server.once('error', reject);
      server.listen(boundPort, '127.0.0.1', () => {
        boundPort = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const down = async () => {
    const closing = server;
    server = undefined;
    if (!closing) return;
    const closed = new Promise<void>((resolve) => closing.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  const serve = async (hang: boolean) => {
    if (server && hanging === hang) return;
    await down();
    hanging = hang;
    await listen();
  };
  await listen();
  return { url: `http://127.0.0.1:${boundPort}`, down, up: () => serve(false), hang: () => serve(true), hung, close: down };
}
