import type { HostcallKind } from '../protocol/hostcall-kind.js';
import { execHandler } from './exec-handler.js';
import type { HostcallHandler } from './hostcall-handler.js';
import { httpHandler } from './http-handler.js';

/**
 * The non-streaming handlers {@link createHost} starts with: `exec` and `http` run to
 * completion. Other kinds (`tool`, `session`, `events`, `ui`) are the embedder's to register.
 */
export const defaultHandlers: Readonly<Partial<Record<HostcallKind, HostcallHandler>>> = {
  exec: execHandler,
  http: httpHandler,
};
