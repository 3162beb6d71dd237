// A player's profile, read from the store: their latest finished games (a bounded window, so a
// player with thousands of games costs the same) and the analyses stored for those games.

import type { PlayerStore } from '../players/store.ts';
import { upgrade } from '../analysis/stored.ts';
import { botName } from '../ratings/store.ts';
import { type GameStore, isDamaged } from '../games/store.ts';
import { type FinishedEntry, getAnalysis, listFinished } from '../games/store-operations.ts';
import { finishedPlayers } from '../games/view.ts';
import type { PlayerProfile, ProfileGame } from '../wire/profile.ts';
import { mistakesBySeat, type PlayedGame, placeOf, playerStats, type SeatMistakes, seatOf } from './stats.ts';

/** The profile counts at most this many of the player's latest finished games (one store page). */
export const PROFILE_WINDOW = 100;
/** Recent games listed on the profile. */
export const RECENT_GAMES = 20;
/** Games whose analysis, summed by seat, is kept: a stored analysis never changes, and reading and
 * parsing 100 of them is most of a profile's cost. */
export const SUMMARIES_KEPT = 5000;

type ProfileStore = Pick<GameStore, 'list' | 'getDocument'>;

export interface PlayerGames {
  name: string;
  games: FinishedEntry[];
}

/** The player's name and latest finished public games (listed or rated: an invite's players and
 * results stay among those invited), or undefined for a player nobody knows. A person is known by
 * the players table (a deleted player is gone: their seats were unlinked) once they have held a
 * seat; a bot level (`bot:expert`, the seats it held in rated games) by its seats. */
export async function findPlayer(store: ProfileStore, players: Pick<PlayerStore, 'player'>, playerId: string): Promise<PlayerGames | undefined> {
  const known = playerId.startsWith('p_') ? await players.player(playerId) : undefined;
  if (playerId.startsWith('p_') && !known) return undefined;
  const { games } = await listFinished(store, { playerId, limit: PROFILE_WINDOW, publicOnly: true });
  if (known) return games.length > 0 || (await heldASeat(store, playerId)) ? { name: known.name, games } : undefined;
  // A player whose only games are still being played is known too.
  const latest = games[0] ?? (await store.list({ finished: false, playerId, limit: 1 })).games.find((g) => !isDamaged(g));
  if (!latest) return undefined;
  // A bot level is named as on the leaderboard ("expert bot"), not as its latest seat ("expert bot 3").
  return { name: botName(playerId) ?? latest.holders[seatOf(latest, playerId)]?.name ?? playerId, games };
}

/** Whether the player holds or held a seat in any game, public or not. */
async function heldASeat(store: ProfileStore, playerId: string): Promise<boolean> {
  for (const finished of [true, false]) if ((await store.list({ finished, playerId, limit: 1 })).games.length > 0) return true;
  return false;
}

/** Reads profiles from `store`, keeping the analyses it read summed by seat (the oldest read first out). */
export function profileReader(store: ProfileStore, players: Pick<PlayerStore, 'player'>, kept = SUMMARIES_KEPT): (playerId: string) => Promise<PlayerProfile | undefined> {
  const summaries = new Map<string, SeatMistakes[]>();
  const summaryOf = async (gameId: string): Promise<SeatMistakes[] | undefined> => {
    const known = summaries.get(gameId);
    if (known) return known;
    const analysis = upgrade(await getAnalysis(store, gameId));
    if (!analysis) return undefined; // not kept: it may be stored later
    if (summaries.size >= kept) summaries.delete(summaries.keys().next().value!);
    const summary = mistakesBySeat(analysis);
    summaries.set(gameId, summary);
    return summary;
  };
  return async (playerId) => {
    const found = await findPlayer(store, players, playerId);
    if (!found) return undefined;
    // Games stored before final scores were kept predate player ids: none of a player's lacks them.
    const scored = found.games.filter((g): g is FinishedEntry & PlayedGame => g.end.scores !== null);
    const played = await Promise.all(
      scored.map(async (g) => {
        const analysis = await summaryOf(g.setup.id);
        return analysis ? { ...g, analysis } : g;
      }),
    );
    return {
      id: playerId,
      name: found.name,
      ...playerStats(playerId, played),
      recent: played.slice(0, RECENT_GAMES).map((g) => recentGame(g, playerId)),
      window: PROFILE_WINDOW,
    };
  };
}

function recentGame(g: PlayedGame, playerId: string): ProfileGame {
  const seat = seatOf(g, playerId);
  return {
    id: g.setup.id,
    finishedAt: g.finishedAt,
    rules: g.setup.rules,
    rated: Boolean(g.setup.rated),
    abandoned: g.end.abandoned,
    players: finishedPlayers(g.setup, g.holders, g.end.scores),
    seat,
    place: placeOf(g.end.scores, seat),
    analysed: g.analysis !== undefined,
  };
}
