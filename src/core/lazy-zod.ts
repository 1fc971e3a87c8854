import { createRequire } from 'node:module';
import type * as Zod from 'zod';

type ZodApi = typeof Zod.z;
let loaded: ZodApi | undefined;

/**
 * zod, loaded on first use rather than at import. Importing zod costs 40–65 ms, about as much as
 * rxjs itself, so the root entry (`sluice`) validates its options with schemas built on the first
 * call instead (the import budget, test/style/root-entry-imports.test.ts). Loads zod's CommonJS build synchronously, so options are
 * still validated before anything subscribes or spawns. Node-only: browser-safe modules import
 * zod directly. Internal: not exported from the package.
 *
 * @example
 * ```ts
 * const bufferSize = lazySchema((z) => z.number().int().nonnegative());
 * bufferSize().parse(16); // zod is loaded here, the first time a schema is needed
 * ```
 */
export function lazySchema<T>(build: (z: ZodApi) => T): () => T {
  let schema: T | undefined;
  return () => {
    if (schema === undefined) {
      loaded ??= (createRequire(import.meta.url)('zod') as typeof Zod).z;
      schema = build(loaded);
    }
    return schema;
  };
}
