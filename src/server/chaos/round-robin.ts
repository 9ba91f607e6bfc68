import net from 'node:net';

/**
 * A TCP load balancer on loopback, as an operator puts one before two instances: each new
 * connection goes to the next backend in turn, and to the other one when that one refuses it (an
 * instance that is down). A connection in flight when its backend dies is cut, as behind a real one.
 */
export interface RoundRobin {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startRoundRobin(backendPorts: () => number[]): Promise<RoundRobin> {
  let next = 0;
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    client.pause();
    const ports = backendPorts();
    const start = next++;
    const attempt = (i: number) => {
      if (i >= ports.length) {
        client.destroy();
        return;
      }
      const upstream = net.connect(ports[(start + i) % ports.length]!, '127.0.0.1');
      const refused = () => {
        upstream.destroy();
        attempt(i + 1);
      };
      upstream.once('error', refused);
      upstream.once('connect', () => {
        upstream.off('error', refused);
        track(upstream);
        upstream.on('close', () => client.destroy());
        client.on('close', () => upstream.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
    };
    attempt(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
