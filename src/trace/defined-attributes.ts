import type { Attributes } from '@opentelemetry/api';
import type { TraceAttributes } from './run-span.js';

/**
 * `attributes` without its `undefined` values, as OpenTelemetry's `Attributes`.
 *
 * @example
 * ```ts
 * definedAttributes({ 'process.pid': 42, 'process.exit.code': undefined }); // { 'process.pid': 42 }
 * ```
 */
export function definedAttributes(attributes: TraceAttributes): Attributes {
  const out: Attributes = {};
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) out[key] = value as Attributes[string];
  }
  return out;
}
