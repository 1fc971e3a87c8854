import type { ServerResponse } from 'node:http';
import type { Demand } from '../core/demand.js';

/**
 * A `ServerResponse` that someone else writes (the SDK's transport, through `@hono/node-server`,
 * which stops reading the transport's stream when `res.write` answers `false`) as a {@link Demand}:
 * paused while `res.writableNeedDrain`, resumed on `'drain'` and for good on `'close'`.
 *
 * @example
 * ```ts
 * const remove = readers.add(responseDemand(res));
 * ```
 */
export function responseDemand(res: ServerResponse): Demand {
  return {
    get paused() {
      return res.writableNeedDrain && !res.destroyed && !res.writableFinished;
    },
    onChange(listener) {
      const resumed = () => listener(false);
      res.on('drain', resumed);
      res.on('close', resumed);
      return () => {
        res.off('drain', resumed);
        res.off('close', resumed);
      };
    },
  };
}
