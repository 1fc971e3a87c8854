/**
 * Holds type-level assertions (`expectTypeOf`, `@ts-expect-error`) that `tsc` checks but that must
 * not run: the calls in them would start processes, subscribe or throw. `fn` is never called.
 *
 * @example
 * ```ts
 * it('gives Uint8Array chunks', () => typeOnly(() => {
 *   expectTypeOf(exec('cat', [], { encoding: 'buffer' })).toEqualTypeOf<Observable<ExecEvent<Uint8Array>>>();
 * }));
 * ```
 */
export function typeOnly(_fn: () => void): void {}
