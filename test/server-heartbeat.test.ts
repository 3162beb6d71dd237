// The heartbeat drops a peer that stops answering pings (a raw socket that completes the
// upgrade and then stays silent); a live WebSocket client answers and stays.

import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { Client, startServer } from './server-helpers.ts';

test('a dead peer is dropped by the heartbeat, a live one stays', async () => {
  const server = await startServer({ heartbeatMs: 300 });
  try {
    const url = new URL(server.ws);
    const live = await Client.connect(server.ws);
    const dropped = await new Promise<number>((resolve, reject) => {
      const started = Date.now();
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(`GET /ws HTTP/1.1\r\nHost: ${url.host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`);
      });
      socket.on('data', () => {}); // reads pings, never answers them
      socket.on('close', () => resolve(Date.now() - started));
      socket.on('error', reject);
    });
    assert.ok(dropped < 4000, `dropped after ${dropped} ms`);
    live.send({ type: 'ping', id: 1 });
    assert.equal((await live.next((f) => f.type === 'pong')).ref, 1);
    assert.equal(live.closed, null);
    live.close();
  } finally {
    await server.app.close();
  }
});
