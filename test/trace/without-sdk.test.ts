import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { execa } from 'execa';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { exec } from '../../src/sources/exec.js';
import { http } from '../../src/sources/http.js';
import { NOOP_RUN_SPAN, startRunSpan } from '../../src/trace/run-span.js';
import { loadTraceApi, traceApi } from '../../src/trace/trace-api.js';
import { withRemoteParent } from '../../src/trace/trace-context.js';
import { startTestServer } from '../fixtures/http-server.js';

const EXEC_MODULE = fileURLToPath(new URL('../../src/sources/exec.ts', import.meta.url));

// Nothing registers an SDK in this file: the API is installed (a devDependency) but nobody listens.
describe('tracing without an SDK', () => {
  it('runs exec as before: the shared no-op span, no TRACEPARENT for the child, no error', async () => {
    const span = startRunSpan('exec', 'exec x');
    expect(span).toBe(NOOP_RUN_SPAN); // decided once per run: no span object, no per-line work
    expect(span.recording).toBe(false);
    expect(span.observed).toBe(false);
    expect(span.carrier).toBeUndefined();
    span.event('sluice.spawn');
    span.end('exit');
    const events = await lastValueFrom(exec('sh', ['-c', 'echo "[$TRACEPARENT]"']).pipe(toArray()));
    expect(events.map((event) => event.content)).toEqual(['[]\n', expect.objectContaining({ exitCode: 0 })]);
  });

  it('leaves @opentelemetry/api unloaded by a run while nothing is registered', async () => {
    // A fresh process: which CommonJS modules are loaded after a run (sluice loads the API with
    // `require`); then the API imported by hand, to show that the probe sees it when it is loaded.
    const script = `
      import { createRequire } from 'node:module';
      import { lastValueFrom } from 'rxjs';
      const { exec } = await import(${JSON.stringify(EXEC_MODULE)});
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((id) => id.includes('@opentelemetry/api'));
      await lastValueFrom(exec('true'));
      const afterRun = loaded();
      await import('@opentelemetry/api');
      console.log(JSON.stringify({ afterRun, afterImport: loaded() }));`;
    const { stdout } = await execa(process.execPath, [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      script,
    ]);
    expect(JSON.parse(stdout)).toEqual({ afterRun: false, afterImport: true });
  });

  it('sends http requests without trace headers', async () => {
    const server = await startTestServer();
    server.route('/headers', (req, res) => res.end(JSON.stringify(req.headers)));
    try {
      const events = await lastValueFrom(
        http(server.url('/headers'), undefined, { lines: true }).pipe(toArray()),
      );
      const body = events.flatMap((event) => (event.kind === 'body' ? [event.content] : [])).join('');
      expect(JSON.parse(body)).not.toHaveProperty('traceparent');
    } finally {
      await server.close();
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

  it('with a context manager but no SDK, hands an active remote parent on to the child untouched', async () => {
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    try {
      const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      const printEnv = ['-c', 'echo "[$TRACEPARENT][$TRACESTATE]"'];
      const [line] = await withRemoteParent({ traceparent, tracestate: 'v=1' }, () => {
        const span = startRunSpan('exec', 'exec x');
        expect(span.observed).toBe(false);
        expect(span.carrier).toEqual({ traceparent, tracestate: 'v=1' });
        return lastValueFrom(exec('sh', printEnv).pipe(toArray()));
      });
      expect(line?.content).toBe(`[${traceparent}][v=1]\n`);
      expect(startRunSpan('exec', 'exec x')).toBe(NOOP_RUN_SPAN); // outside it: nothing active
    } finally {
      context.disable();
      manager.disable();
    }
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
