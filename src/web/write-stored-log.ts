import type { ServerResponse } from 'node:http';
import { Subscription } from 'rxjs';
import { Valve } from '../core/demand.js';
import { followRun } from '../runs/follow-run.js';
import type { RunStore } from '../runs/run-store.js';

/**
 * Writes what a run store still holds of run `runId`'s output, up to sequence `last`, to `res`
 * (headers sent) and ends it: the download of a run another server holds. A trimmed stretch is one
 * line saying so; the read is paced by the response and stops when it closes. Internal.
 */
export function writeStoredLog(store: RunStore, runId: string, last: number, res: ServerResponse): void {
  const valve = new Valve();
  const subscription = new Subscription();
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
  else
    followRun(
      store,
      runId,
      { demand: valve },
      {
        event: (event) => {
          if (event.sequence > last) {
            done();
            return;
          }
          const content: unknown = event.content;
          if (event.kind !== 'stdout' && event.kind !== 'stderr') return;
          if (typeof content === 'string' || content instanceof Uint8Array) write(content);
        },
        gap: ({ from, to }) =>
          write(`[sluice: ${to - from + 1} earlier events are no longer retained by the run store]\n`),
        failure: () => {},
        error: () => res.destroy(),
        complete: done,
      },
      subscription,
    );
}
