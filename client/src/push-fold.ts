// Turn notifications in words: what the service worker shows for a push (sw.ts), the games of the
// message folded into those of the notification already shown, one notification for all the
// player's turns (a reminder and a challenge each stand apart); a device's name; the count
// before the tab's title. No DOM, no worker globals: unit-tested in test/client-push.test.ts.

import type { PushGame, PushMessage } from '../../server/wire/push.ts';

export const TURNS_TAG = 'tessera-turns';

export interface ShownPush {
  title: string;
  body: string;
  tag: string;
  /** Where a click goes: the game, or the lobby's "Your games" for several. */
  url: string;
  games: PushGame[];
}

/** "5 h left", "2 days left", "under a minute left"; '' without a deadline. */
export function timeLeft(deadline: number | null, now: number): string {
  if (deadline === null) return '';
  const minutes = Math.floor((deadline - now) / 60_000);
  if (minutes < 1) return 'under a minute left';
  if (minutes < 60) return `${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h left`;
  return `${Math.floor(hours / 24)} days left`;
}

/** The notification for `message`, given the games of the one shown with its tag (if any). */
export function foldPush(message: PushMessage, shown: PushGame[], now: number): ShownPush {
  if (message.kind === 'challenge') {
    const game = message.games[0];
    return {
      title: message.by ? `${message.by} challenges you` : 'You are challenged to a game',
      body: 'A seat is kept for you: open the game to take it.',
      tag: `tessera-challenge-${game?.gameId ?? ''}`,
      url: game?.url ?? '/#/',
      games: message.games,
    };
  }
  if (message.kind === 'reminder') {
    const game = message.games[0];
    const left = game ? timeLeft(game.deadline, now) : '';
    return {
      title: 'Your move is due soon',
      body: left ? `${left} to move before a bot plays for you.` : 'Move before a bot plays for you.',
      tag: `tessera-reminder-${game?.gameId ?? ''}`,
      url: game?.url ?? '/#/',
      games: message.games,
    };
  }
  const byGame = new Map<string, PushGame>();
  for (const g of [...shown, ...message.games]) if ((byGame.get(g.gameId)?.turn ?? -1) <= g.turn) byGame.set(g.gameId, g);
  // A game shown before whose deadline passed was played by its stand-in: no longer waiting.
  const games = [...byGame.values()].filter((g) => g.deadline === null || g.deadline > now);
  const count = Math.max(games.length, message.waiting ?? 0, 1);
  const soonest = games.flatMap((g) => (g.deadline === null ? [] : [g.deadline])).sort((a, b) => a - b)[0] ?? null;
  const left = timeLeft(soonest, now);
  if (count === 1) return { title: 'Your turn', body: left ? `A game waits for your move (${left}).` : 'A game waits for your move.', tag: TURNS_TAG, url: games[0]?.url ?? '/#/', games };
  return { title: `Your turn in ${count} games`, body: left ? `The soonest has ${left}.` : 'They wait for your moves.', tag: TURNS_TAG, url: '/#/', games };
}

/** "Chrome on Android": what the player sees in their list of devices. */
export function deviceLabel(userAgent: string): string {
  const browser = /Edg\//.test(userAgent) ? 'Edge' : /Firefox\//.test(userAgent) ? 'Firefox' : /(Chrome|Chromium)\//.test(userAgent) ? 'Chrome' : /Safari\//.test(userAgent) ? 'Safari' : 'A browser';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Mac OS X/.test(userAgent)
        ? 'macOS'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /Linux|X11/.test(userAgent)
            ? 'Linux'
            : '';
  return system ? `${browser} on ${system}` : browser;
}

const PREFIX = /^\(\d+\) /;

/** The title with the count before it (none for 0). */
export function titled(title: string, count: number): string {
  const bare = title.replace(PREFIX, '');
  return count > 0 ? `(${count}) ${bare}` : bare;
}
