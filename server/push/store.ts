// Web Push as stored beside the games, in the same database: the server's VAPID key pair (one
// row, made at first start: every instance of a cluster signs with the same keys, which the
// browsers' subscriptions are bound to), each player's devices (their push subscriptions), and a
// claim per notification sent, so a restart or another instance never sends it twice.

import { randomBytes } from 'node:crypto';

/** The application server's key pair (RFC 8292), base64url as the Push API takes them. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  createdAt: string;
}

/** One browser on one device that agreed to be notified: its push subscription. */
export interface PushDevice {
  /** `d_` and 16 base64url characters: what the player removes it by. */
  id: string;
  playerId: string;
  /** The push service's URL for this subscription (unique: a browser holds one per origin). */
  endpoint: string;
  /** The browser's P-256 public key and auth secret (RFC 8291), base64url. */
  p256dh: string;
  auth: string;
  /** What the player sees in their list ("Chrome on Android"), from the subscribing page. */
  label: string;
  createdAt: string;
}

/** A notification's identity: one per player, game, turn and kind, ever (a challenge: turn 0). */
export interface PushClaim {
  playerId: string;
  gameId: string;
  turn: number;
  kind: 'turn' | 'reminder' | 'challenge';
}

/** How long a claim is kept: past the longest time a turn may wait (7 days) with room to spare. */
export const CLAIM_KEEP_MS = 30 * 86_400_000;

export interface PushStore {
  /** The stored key pair; when there is none yet, `made` is stored, unless another instance's
   * got there first: every caller gets the one stored. */
  vapidKeys(made: VapidKeys): Promise<VapidKeys>;
  /** Stores the device for the player; an endpoint already stored (the same browser subscribing
   * again, or after another player used it) is moved to this player with its new keys and label,
   * keeping its id. Returns the stored device. */
  saveDevice(device: PushDevice): Promise<PushDevice>;
  devices(playerId: string): Promise<PushDevice[]>;
  /** Removes one of the player's devices; false when they have none with that id. */
  removeDevice(playerId: string, id: string): Promise<boolean>;
  /** Forgets a subscription the push service says is gone (404, 410). */
  dropEndpoint(endpoint: string): Promise<void>;
  /** Claims each notification not claimed before, in one transaction; returns those this call
   * claimed (the others were sent, or are being sent, by someone else). */
  claim(claims: PushClaim[], at: number): Promise<PushClaim[]>;
  /** Removes claims made before `before`; returns how many. */
  pruneClaims(before: number): Promise<number>;
}

export function newDeviceId(): string {
  return `d_${randomBytes(12).toString('base64url')}`;
}

export const claimKey = (c: PushClaim): string => `${c.playerId}\u0000${c.gameId}\u0000${c.turn}\u0000${c.kind}`;
