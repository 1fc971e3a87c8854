import { isObservable, type Observable } from 'rxjs';
import { z } from 'zod';

/**
 * Accepts any RxJS `Observable` (checked with `isObservable`, so a copy of RxJS from another
 * bundle works too). Internal to `src/adapters`.
 *
 * @example
 * ```ts
 * checkArgument(source, 'source', observableSchema, 'an Observable');
 * ```
 */
export const observableSchema = z.custom<Observable<unknown>>((value) => isObservable(value));
