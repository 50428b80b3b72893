import { parentPort, workerData } from 'node:worker_threads';
import { type GroupJob, foldGroup } from './fold-group.js';

/** A replay thread (parallel-replay.ts): folds its group of reports, with progress at most 5 times a second. */
let last = 0;
const done = foldGroup(workerData as GroupJob, (position) => {
  const now = Date.now();
  if (now - last < 200) return;
  last = now;
  parentPort!.postMessage({ progress: position.toString() });
});
parentPort!.postMessage({ done });
