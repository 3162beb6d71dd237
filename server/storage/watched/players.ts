// The player store as the server uses it: its writes go to the game store's database, so a
// failing one (a full disk) must show where a failing game write does: /readyz and /metrics.

import type { PlayerStore } from '../../players/store.ts';

type Watch = <T>(op: string, fn: () => Promise<T>) => Promise<T>;

export function watchedPlayers(inner: PlayerStore, watch: Watch): PlayerStore {
  return {
    createPlayer: (player, session) => watch('create_player', () => inner.createPlayer(player, session)),
    playerBySession: (hash, now) => inner.playerBySession(hash, now),
    seen: (playerId, at) => watch('player_seen', () => inner.seen(playerId, at)),
    sweep: (now, idleBefore) => watch('sweep_accounts', () => inner.sweep(now, idleBefore)),
    player: (id) => inner.player(id),
    nameHeld: (name) => inner.nameHeld(name),
    playerByName: (name) => inner.playerByName(name),
    rename: (playerId, name) => watch('rename_player', () => inner.rename(playerId, name)),
    deletePlayer: (playerId, replacement, at) => watch('delete_player', () => inner.deletePlayer(playerId, replacement, at)),
    endSession: (hash) => watch('end_session', () => inner.endSession(hash)),
    putChallenge: (challenge) => watch('put_challenge', () => inner.putChallenge(challenge)),
    takeChallenge: (challenge, now) => watch('take_challenge', () => inner.takeChallenge(challenge, now)),
    addPasskey: (passkey) => watch('add_passkey', () => inner.addPasskey(passkey)),
    passkey: (id) => inner.passkey(id),
    passkeys: (playerId) => inner.passkeys(playerId),
    signIn: (passkeyId, counter, session, replaces) => watch('sign_in', () => inner.signIn(passkeyId, counter, session, replaces)),
  };
}
