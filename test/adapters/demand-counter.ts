import { Observable } from 'rxjs';
import { demandOf } from '../../src/core/subscriber-chain.js';

/** What a {@link demandCounter} saw. */
export interface DemandCounterStats {
  produced: number;
  subscriptions: number;
  teardowns: number;
  sawDemand: boolean;
}

/**
 * A synthetic producer that honours demand: it emits 0, 1, 2, … up to `count - 1` while the
 * subscription's demand is not paused, then completes (or errors with `error`). `mode: 'sync'`
 * emits in a loop at subscribe time and on every resume; `mode: 'async'` emits one value per
 * macrotask (setImmediate) while not paused. `stats.produced` is how far it got.
 */
export function demandCounter(options: { count: number; error?: unknown; mode?: 'sync' | 'async' }): {
  source: Observable<number>;
  stats: DemandCounterStats;
} {
  const stats: DemandCounterStats = { produced: 0, subscriptions: 0, teardowns: 0, sawDemand: false };
  const source = new Observable<number>((subscriber) => {
    const demand = demandOf(subscriber);
    stats.subscriptions += 1;
    stats.sawDemand = demand !== undefined;
    let next = 0;
    let running = false;
    let timer: NodeJS.Immediate | undefined;
    const end = () => {
      if (options.error === undefined) subscriber.complete();
      else subscriber.error(options.error);
    };
    const emitOne = (): boolean => {
      if (next >= options.count) {
        end();
        return false;
      }
      stats.produced += 1;
      subscriber.next(next++);
      return true;
    };
    const run = () => {
      if (running || subscriber.closed) return;
      if (options.mode === 'async') {
        if (timer !== undefined || demand?.paused) return;
        timer = setImmediate(() => {
          timer = undefined;
          if (!subscriber.closed && !demand?.paused && emitOne()) run();
        });
        return;
      }
      running = true;
      while (!subscriber.closed && !demand?.paused && emitOne()) {
        // keep emitting while there is demand
      }
      running = false;
    };
    const stop = demand?.onChange((paused) => {
      if (!paused) run();
    });
    run();
    return () => {
      stats.teardowns += 1;
      stop?.();
      if (timer !== undefined) clearImmediate(timer);
    };
  });
  return { source, stats };
}
