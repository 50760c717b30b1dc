// A TCP proxy to a server (PostgreSQL, for the tests of a database outage): the application is
// pointed at the proxy, and the test cuts it (every connection dropped, new ones refused) and
// restores it on the same port, without touching the machine's shared server.
import net from "node:net";

export type TcpProxy = {
  readonly port: number;
  /** Drops every connection and stops listening: a connection attempt is refused (ECONNREFUSED). */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => sockets.delete(socket));
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const stop = async () => {
    const closed = server.listening ? new Promise((resolve) => server.close(resolve)) : Promise.resolve();
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return { port, cut: stop, restore: () => listen(port), close: stop };
}

/** The URL of `url`'s database reached through the proxy on `port`. */
export function throughProxy(url: string, port: number): string {
  const u = new URL(url);
  u.hostname = "127.0.0.1";
  u.port = String(port);
  return u.toString();
}
