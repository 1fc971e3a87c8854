import type { ChunkEvent } from '../../core/chunk.js';

/** What `sluice follow` writes a run's records with: frames (`--json`), text, and a cast (`--cast`). */
export interface FollowView {
  /** The exit code the records so far call for. */
  readonly code: number;
  event(event: ChunkEvent<unknown>): Promise<void> | undefined;
  gap(from: number, to: number): Promise<void> | undefined;
  failure(failure: { code: string; name: string; message: string }): Promise<void> | undefined;
}
