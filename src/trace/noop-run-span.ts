import type { RunSpan } from './run-span.js';

/** The {@link RunSpan} of every run no SDK listens to (or without `@opentelemetry/api`): it does nothing. */
export const NOOP_RUN_SPAN: RunSpan = Object.freeze({
  recording: false,
  observed: false,
  carrier: undefined,
  add: () => {},
  event: () => {},
  end: () => {},
  groupGone: () => {},
  within: <T>(fn: () => T): T => fn(),
});
