import type { RunSpan } from './run-span.js';

/** The {@link RunSpan} of every run while `@opentelemetry/api` is not installed: it does nothing. */
export const NOOP_RUN_SPAN: RunSpan = Object.freeze({
  recording: false,
  carrier: undefined,
  add: () => {},
  event: () => {},
  end: () => {},
  groupGone: () => {},
  within: <T>(fn: () => T): T => fn(),
});
