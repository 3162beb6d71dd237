// The bot levels, weakest first: names and what each does, with no search code attached, so
// the browser client and the server's schemas can list them without bundling the bots.

export const BOT_LEVELS = ['random', 'greedy', 'heuristic', 'medium', 'hard', 'expert'] as const;
export type BotLevel = (typeof BOT_LEVELS)[number];

/** One line a player can choose a level by. */
export const LEVEL_SUMMARY: Readonly<Record<BotLevel, string>> = {
  random: 'plays any legal move',
  greedy: 'best points now',
  heuristic: 'weighs the board',
  medium: 'looks a round ahead',
  hard: 'weighs more moves a round ahead',
  expert: 'looks two rounds ahead (one at five or six players)',
};

export function isBotLevel(value: unknown): value is BotLevel {
  return typeof value === 'string' && (BOT_LEVELS as readonly string[]).includes(value);
}

/** Each level's ceiling on CPU per move, p95, on one quiet core, at every table size and option
 * (`npm run bench:bots` checks it): quick enough that a table of six bots still moves at a
 * person's pace, and far under the server's deadline for a bot move. */
export const LEVEL_CPU_BUDGET_MS: Readonly<Record<BotLevel, number>> = {
  random: 20,
  greedy: 20,
  heuristic: 20,
  medium: 50,
  hard: 150,
  expert: 500,
};
