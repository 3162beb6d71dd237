// A push service on loopback for the Web Push tests: an HTTPS server (a self-signed certificate
// made by openssl for 127.0.0.1) that takes what the server POSTs to a subscription's endpoint,
// checks its VAPID authorisation (RFC 8292: an ES256 JWT for the endpoint's origin, signed by the
// key it names) and decrypts its payload as a browser would (RFC 8291 and RFC 8188's aes128gcm,
// by hand with node:crypto: not the library the server encrypts with). Endpoints can be told to
// answer as a push service does for a subscription that is gone (404, 410) or failing (500), or to
// close the connection under a request without answering (a kept-alive socket timed out by the
// service just as the sender reused it: the sender sees ECONNRESET, "socket hang up").

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { Agent, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A browser's side of one subscription: its key pair and auth secret, as PushSubscription.toJSON(). */
export interface BrowserSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** The browser's private key (never leaves a browser): what decrypts. */
  decrypt(body: Buffer): string;
}

export interface ReceivedPush {
  endpoint: string;
  headers: Record<string, string | string[] | undefined>;
  /** The decrypted payload. */
  text: string;
  /** The JWT's claims, verified. */
  vapid: { aud: string; sub: string; exp: number; k: string };
}

export interface PushService {
  /** An https agent that trusts this service's certificate, for the sender. */
  agent: Agent;
  origin: string;
  received: ReceivedPush[];
  /** A new subscription on this service. */
  subscribe(): BrowserSubscription;
  /** How an endpoint answers from now on (201 by default). */
  answer(endpoint: string, status: number): void;
  /** The next `times` requests to the endpoint get their connection closed, unanswered. */
  hangUp(endpoint: string, times: number): void;
  /** Resolves once `n` pushes have arrived in all. */
  waitFor(n: number, ms?: number): Promise<ReceivedPush[]>;
  close(): Promise<void>;
}

function selfSigned(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-push-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
}

/** RFC 8291 §3.4 and RFC 8188 §2: one aes128gcm record, the keys derived from ECDH and auth. */
export function decryptAes128gcm(body: Buffer, uaPrivate: ReturnType<typeof createECDH>, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  assert.equal(idlen, 65, 'keyid is the sender’s uncompressed P-256 key');
  assert.ok(ciphertext.length <= rs, 'one record');
  const ecdhSecret = uaPrivate.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPrivate.getPublicKey(), asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record: its data, then the delimiter 0x02, then zeros.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  assert.equal(padded[end], 2, 'the last record’s padding delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`, the JWT ES256-signed by that key. */
function verifiedVapid(authorization: string | undefined): ReceivedPush['vapid'] {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  assert.ok(m, `a VAPID Authorization header: ${authorization}`);
  const [token, k] = [m[1], m[2]];
  const [header, claims, signature] = token.split('.');
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') }, format: 'jwk' });
  const signed = verify('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  assert.ok(signed, 'the JWT is signed by the key it names');
  assert.equal(JSON.parse(Buffer.from(header, 'base64url').toString()).alg, 'ES256');
  return { ...JSON.parse(Buffer.from(claims, 'base64url').toString()), k };
}

export async function startPushService(): Promise<PushService> {
  const tls = selfSigned();
  const received: ReceivedPush[] = [];
  const answers = new Map<string, number>();
  const hangUps = new Map<string, number>();
  const keysOf = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer }>();
  const waiters: (() => void)[] = [];
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const hangUp = hangUps.get(`${origin}${req.url}`) ?? 0;
    if (hangUp > 0) {
      hangUps.set(`${origin}${req.url}`, hangUp - 1);
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const endpoint = `${origin}${req.url}`;
      const status = answers.get(endpoint) ?? 201;
      if (status === 201) {
        const keys = keysOf.get(endpoint);
        assert.ok(keys, `a known endpoint: ${endpoint}`);
        assert.equal(req.headers['content-encoding'], 'aes128gcm');
        const text = decryptAes128gcm(Buffer.concat(chunks), keys.ecdh, keys.auth);
        received.push({ endpoint, headers: req.headers, text, vapid: verifiedVapid(req.headers.authorization) });
        for (const wake of waiters.splice(0)) wake();
      }
      res.writeHead(status).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new Agent({ ca: tls.cert, keepAlive: false });
  return {
    agent,
    origin,
    received,
    subscribe() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const endpoint = `${origin}/push/${randomBytes(9).toString('base64url')}`;
      keysOf.set(endpoint, { ecdh, auth });
      return { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') }, decrypt: (body) => decryptAes128gcm(body, ecdh, auth) };
    },
    answer(endpoint, status) {
      answers.set(endpoint, status);
    },
    hangUp(endpoint, times) {
      hangUps.set(endpoint, times);
    },
    async waitFor(n, ms = 10_000) {
      const until = Date.now() + ms;
      while (received.length < n) {
        assert.ok(Date.now() < until, `${n} pushes within ${ms} ms (got ${received.length})`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return received;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
