// Strategy "fresh worker per search": a thread started for one search (task in workerData),
// which posts its result and ends.

import { parentPort, workerData } from 'node:worker_threads';
import study from './worker.ts';

parentPort!.postMessage(study((workerData as { task: Parameters<typeof study>[0] }).task));
