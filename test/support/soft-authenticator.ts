// A software passkey authenticator (P-256, "none" attestation, discoverable credentials) that
// answers the options the server sends as a browser's authenticator would: enough to prove the
// server's registration and sign-in end to end in Node. Chromium's virtual authenticator proves
// the browser side.

import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { coseP256 } from '../../server/players/cose.ts';

interface Held {
  id: Buffer;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64 = (data: Buffer) => data.toString('base64url');
const counterBytes = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

export class SoftAuthenticator {
  private readonly held: Held[] = [];

  /** startRegistration's answer to creation options, from a page at `origin`; `credentialId`
   * (base64url) reuses an id, as a client replaying or forging a registration would. */
  create(options: { challenge: string; rp: { id: string }; user: { id: string } }, origin: string, credentialId?: string) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const cose = coseP256(publicKey);
    const id = credentialId === undefined ? randomBytes(16) : Buffer.from(credentialId, 'base64url');
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    // Flags: user present, user verified, attested credential data.
    const authData = Buffer.concat([sha256(options.rp.id), Buffer.from([0x45]), counterBytes(0), Buffer.alloc(16), idLength, id, Buffer.from(cose)]);
    this.held.push({ id, privateKey, rpId: options.rp.id, userHandle: options.user.id, counter: 0 });
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, never> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, never>()],
        ['authData', authData],
      ]),
    );
    return {
      id: b64(id),
      rawId: b64(id),
      type: 'public-key',
      response: { clientDataJSON: clientData('webauthn.create', options.challenge, origin), attestationObject: b64(Buffer.from(attestationObject)), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** startAuthentication's answer to request options: the passkey it holds for the site. */
  get(options: { challenge: string; rpId: string }, origin: string) {
    const key = this.held.find((k) => k.rpId === options.rpId);
    if (!key) throw new Error(`no passkey for ${options.rpId}`);
    key.counter++;
    const authenticatorData = Buffer.concat([sha256(options.rpId), Buffer.from([0x05]), counterBytes(key.counter)]);
    const clientDataJSON = clientData('webauthn.get', options.challenge, origin);
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(Buffer.from(clientDataJSON, 'base64url'))]), key.privateKey);
    return {
      id: b64(key.id),
      rawId: b64(key.id),
      type: 'public-key',
      response: { clientDataJSON, authenticatorData: b64(authenticatorData), signature: b64(signature), userHandle: key.userHandle },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}

function clientData(type: string, challenge: string, origin: string): string {
  return b64(Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })));
}
