import type { ServerResponse } from 'node:http';
import { Subscription } from 'rxjs';
import { Valve } from '../core/demand.js';
import { subscribeWithDemand } from '../core/subscriber-chain.js';
import type { RunRecord } from '../runs/run-record.js';
import type { RunStore } from '../runs/run-store.js';

/**
 * Writes what a run store still holds of run `runId`'s output to `res` (whose headers the caller
 * has sent): the `stdout`/`stderr` contents of its events up to sequence `last` (the run as it was
 * when the download was asked for), interleaved as they came, then ends the response. Events the
 * store's retention has trimmed are replaced by one line saying so. Paced by the response (the
 * read pauses while it does not drain); a closed response stops the read. The download of a run
 * that another server runs (and spools the full log of). Internal to `sluice/web`.
 */
export function writeStoredLog(store: RunStore, runId: string, last: number, res: ServerResponse): void {
  const valve = new Valve();
  const subscription = new Subscription();
  const observer = {
    next: (record: RunRecord) => {
      if (record.type === 'gap') {
        const count = record.to - record.from + 1;
        write(`[sluice: ${count} earlier events are no longer retained by the run store]\n`);
      } else if (record.type === 'events') {
        for (const event of record.events) {
          if (event.sequence > last) return done();
          const content: unknown = event.content;
          if (event.kind !== 'stdout' && event.kind !== 'stderr') continue;
          if (typeof content === 'string' || content instanceof Uint8Array) write(content);
        }
      }
    },
    error: () => res.destroy(),
    complete: () => done(),
  };
  const write = (content: string | Uint8Array) => {
    if (!res.write(content)) valve.pause();
  };
  const done = () => {
    subscription.unsubscribe();
    res.end();
  };
  res.on('drain', () => valve.resume());
  res.once('close', () => subscription.unsubscribe());
  if (last < 0) done();
  else subscribeWithDemand(store.read(runId), valve, observer, subscription);
}
