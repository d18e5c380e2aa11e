/**
 * A loopback load balancer for tests: each request (and each websocket upgrade) goes to the next
 * backend in turn, with no affinity of any kind, like Traefik's default round robin in compose.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface RoundRobin {
  url: string;
  /** Backend index (0-based) that served each request, in arrival order. */
  served: number[];
  close(): Promise<void>;
}

export async function roundRobinProxy(backends: { host: string; port: number }[]): Promise<RoundRobin> {
  let next = 0;
  const served: number[] = [];
  const pick = () => {
    const index = next++ % backends.length;
    served.push(index);
    return backends[index] as { host: string; port: number };
  };

  const server: Server = createServer((req, res) => {
    const target = pick();
    const upstream = request(
      { host: target.host, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '' } },
      (answer: IncomingMessage) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });

  // Websocket upgrades are forwarded byte for byte, as any replacement proxy must.
  server.on('upgrade', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = pick();
    const upstream = connect(target.port, target.host, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
