/**
 * The test balancer itself: plain requests and websocket upgrades alternate between backends,
 * and a websocket stays open and carries messages both ways (what live progress needs of a proxy).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { WebSocket, WebSocketServer } from 'ws';
import { roundRobinProxy } from './roundRobin.js';

async function backend(name: string): Promise<{ port: number; server: Server }> {
  const server = createServer((req, res) => {
    res.setHeader('x-backend', name);
    res.end(`${req.method} ${req.url}`);
  });
  const sockets = new WebSocketServer({ server });
  sockets.on('connection', (socket) => socket.on('message', (data) => socket.send(`${name}:${data}`)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { port: (server.address() as AddressInfo).port, server };
}

function echo(url: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.on('open', () => socket.send(text));
    socket.on('message', (data) => {
      resolve(String(data));
      socket.close();
    });
    socket.on('error', reject);
  });
}

describe('round-robin test balancer', () => {
  it('alternates requests and websocket upgrades between backends, with no affinity', async () => {
    const a = await backend('a');
    const b = await backend('b');
    const proxy = await roundRobinProxy([a, b].map(({ port }) => ({ host: '127.0.0.1', port })));
    try {
      const answers = [];
      for (let i = 0; i < 4; i++) {
        const res = await fetch(`${proxy.url}/path?i=${i}`, { method: i % 2 ? 'POST' : 'GET', body: i % 2 ? 'x' : undefined });
        answers.push(`${res.headers.get('x-backend')} ${await res.text()}`);
      }
      expect(answers).to.deep.equal(['a GET /path?i=0', 'b POST /path?i=1', 'a GET /path?i=2', 'b POST /path?i=3']);

      const wsUrl = proxy.url.replace('http', 'ws');
      expect(await echo(`${wsUrl}/live`, 'hello')).to.equal('a:hello');
      expect(await echo(`${wsUrl}/live`, 'again')).to.equal('b:again');
    } finally {
      await proxy.close();
      a.server.closeAllConnections();
      b.server.closeAllConnections();
      a.server.close();
      b.server.close();
    }
  });
});
