import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { exec } from '../../src/sources/exec.js';
import { NOOP_RUN_SPAN } from '../../src/trace/noop-run-span.js';
import { otelRegistered } from '../../src/trace/otel-registered.js';
import { startRunSpan } from '../../src/trace/start-run-span.js';
import { loadTraceApi, traceApi } from '../../src/trace/trace-api.js';
import { withRemoteParent } from '../../src/trace/with-remote-parent.js';

// Nothing registers an SDK in this file: the API is installed (a devDependency) but nobody listens.
describe('tracing without an SDK', () => {
  it('runs exec as before: no recording span, no TRACEPARENT for the child, no error', async () => {
    const span = startRunSpan('exec', 'exec x');
    expect(span.recording).toBe(false);
    expect(span.carrier).toBeUndefined();
    span.event('sluice.spawn');
    span.end('exit');
    const events = await lastValueFrom(exec('sh', ['-c', 'echo "[$TRACEPARENT]"']).pipe(toArray()));
    expect(events.map((event) => event.content)).toEqual(['[]\n', expect.objectContaining({ exitCode: 0 })]);
  });

  it('gives the shared no-op span while nothing is registered, and a real one once something is', () => {
    // Nothing registered and no parent: the API is not even needed (docs/tracing.md, "How it costs").
    expect(otelRegistered()).toBe(false);
    expect(startRunSpan('exec', 'exec x')).toBe(NOOP_RUN_SPAN);
    expect(
      withRemoteParent({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }, () => 7),
    ).toBe(7);
    const api = traceApi();
    if (api === undefined) throw new Error('@opentelemetry/api is a devDependency');
    api.diag.setLogger(new api.DiagConsoleLogger(), api.DiagLogLevel.NONE); // registers something
    try {
      expect(otelRegistered()).toBe(true);
      const span = startRunSpan('exec', 'exec x');
      expect(span).not.toBe(NOOP_RUN_SPAN);
      expect(span.recording).toBe(false);
      span.end('exit');
    } finally {
      api.diag.disable();
    }
  });

  it('passes a remote parent on to the child even without an SDK (the trace is not cut)', async () => {
    // Without a context manager the API cannot make a context active: the parent goes by option.
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const span = startRunSpan('exec', 'exec x', {}, { parent: { traceparent, tracestate: 'v=1' } });
    expect(span.recording).toBe(false);
    expect(span.carrier).toEqual({ traceparent, tracestate: 'v=1' });
    expect(withRemoteParent({ traceparent }, () => 42)).toBe(42);
  });
});

describe('loading @opentelemetry/api', () => {
  it('finds the installed API once and keeps it', () => {
    expect(traceApi()).toBeDefined();
    expect(traceApi()).toBe(traceApi());
  });

  it('gives undefined where the API cannot be resolved (tracing off), never an error', () => {
    const outside = mkdtempSync(join(tmpdir(), 'sluice-no-otel-'));
    const require = createRequire(join(outside, 'index.js')); // no node_modules up from here
    expect(loadTraceApi(require)).toBeUndefined();
    rmSync(outside, { recursive: true, force: true });
  });

  it('throws what is not a missing API: a broken install stays loud', () => {
    const outside = mkdtempSync(join(tmpdir(), 'sluice-broken-otel-'));
    const folder = join(outside, 'node_modules', '@opentelemetry', 'api');
    writeFileSync(join(outside, 'index.js'), '');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'package.json'), '{"name":"@opentelemetry/api","main":"index.js"}');
    writeFileSync(join(folder, 'index.js'), "throw new Error('broken build');");
    expect(() => loadTraceApi(createRequire(join(outside, 'index.js')))).toThrow('broken build');
    rmSync(outside, { recursive: true, force: true });
  });

  it('makes the no-op span do nothing and run what it wraps', () => {
    expect(NOOP_RUN_SPAN.within(() => 'ran')).toBe('ran');
    expect(() => NOOP_RUN_SPAN.end('cancel')).not.toThrow();
  });
});
