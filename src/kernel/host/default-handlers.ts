import type { HostcallKind } from '../protocol/hostcall-kind.js';
import { execHandler } from './exec-handler.js';
import type { HostcallHandler } from './hostcall-handler.js';
import { httpHandler } from './http-handler.js';

/**
 * The non-streaming handlers {@link createHost} starts with: `exec` and `http` run to
 * completion. Other kinds (`tool`, `session`, `events`, `ui`) are the embedder's to register.
 *
 * @example
 * ```ts
 * const host = createHost({ handlers: { ...defaultHandlers, tool: runTool } });
 * ```
 */
export const defaultHandlers: Readonly<Partial<Record<HostcallKind, HostcallHandler>>> = {
  exec: execHandler,
  http: httpHandler,
};
