// Strategy "one Worker per game" (no pool): a thread started when its game starts, which runs
// that game's searches one message at a time until the game ends and the thread is terminated.

import { parentPort } from 'node:worker_threads';
import study from './worker.ts';

parentPort!.on('message', (task: Parameters<typeof study>[0]) => parentPort!.postMessage(study(task)));
// Loaded (the search's modules included): the game's thread is ready.
parentPort!.postMessage('ready');
