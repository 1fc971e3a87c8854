/**
 * What {@link bounded} does when `bufferSize` events wait for a paused consumer (Effect's names):
 *
 * - `suspend` — pause the producer through its demand (backpressure; nothing is lost);
 * - `dropping` — drop the newest event (the one arriving);
 * - `sliding` — drop the oldest waiting event;
 * - `error` — fail with a `BufferOverflowError` (code `BUFFER_OVERFLOW`).
 */
export type BoundedStrategy = 'suspend' | 'dropping' | 'sliding' | 'error';
