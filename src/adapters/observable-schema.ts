import { isObservable, type Observable } from 'rxjs';
import { lazySchema } from '../core/lazy-zod.js';

/**
 * Accepts any RxJS `Observable` (checked with `isObservable`, so a copy of RxJS from another
 * bundle works too). Internal to `src/adapters`.
 *
 * @example
 * ```ts
 * checkArgument(source, 'source', observableSchema(), 'an Observable');
 * ```
 */
export const observableSchema = lazySchema((z) =>
  z.custom<Observable<unknown>>((value) => isObservable(value)),
);
