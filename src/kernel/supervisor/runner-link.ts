import type { Observable } from 'rxjs';

/**
 * What the supervisor sees of a runner, whatever it runs on: an Observable of its output lines
 * and its exit (unsubscribing kills it — the whole process group for a child), and `send` to
 * write one line to its input.
 */
export interface RunnerLink {
  readonly events$: Observable<RunnerLinkEvent>;
  send(line: string): void;
}

/**
 * One thing a runner did: a piece of a stdout / stderr line (`partial: true` when the line goes on
 * in the next piece), or its exit.
 */
export type RunnerLinkEvent =
  | {
      readonly type: 'line';
      readonly stream: 'stdout' | 'stderr';
      readonly text: string;
      readonly partial?: boolean;
    }
  | { readonly type: 'exit'; readonly exitCode: number | null; readonly signal: string | null };
