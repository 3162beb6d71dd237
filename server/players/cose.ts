// A P-256 public key as WebAuthn carries it (COSE_Key, ES256).

import type { KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

export function coseP256(publicKey: KeyObject): Uint8Array<ArrayBuffer> {
  const jwk = publicKey.export({ format: 'jwk' });
  const coordinate = (c: string | undefined) => Buffer.from(c ?? '', 'base64url');
  return isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, coordinate(jwk.x)],
      [-3, coordinate(jwk.y)],
    ]),
  );
}
