// `npm run --silent replay -- FILE` (or `-` for standard input): validates a tessera-game/1
// record move by move and prints the scores and every scoring event as one JSON object.

import { readFileSync } from 'node:fs';
import { RecordError, replayRecord } from '../../bot-engine/record.ts';

function main(argv: string[]): number {
  const file = argv[0];
  if (!file) {
    process.stderr.write('usage: npm run --silent replay -- FILE|-\n');
    return 2;
  }
  let record: unknown;
  try {
    record = JSON.parse(readFileSync(file === '-' ? 0 : file, 'utf8'));
  } catch (e) {
    process.stdout.write(`${JSON.stringify({ error: `cannot read a JSON record: ${(e as Error).message}` })}\n`);
    return 1;
  }
  try {
    const { scores, events } = replayRecord(record);
    process.stdout.write(`${JSON.stringify({ scores, events })}\n`);
    return 0;
  } catch (e) {
    if (!(e instanceof RecordError)) throw e;
    const out = e.moveIndex === undefined ? { error: e.message } : { error: e.message, moveIndex: e.moveIndex };
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));
