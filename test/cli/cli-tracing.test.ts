import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { CLI } from '../support/sluice-cli.js';
import { newSpanFile, readSpanFile, SPAN_FILE_SETUP } from '../support/span-file.js';

const PARENT = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' };

describe('sluice exec in a trace (TRACEPARENT in, a setup file loaded with --import)', () => {
  it.each([
    ['text', []],
    ['--json', ['--json']],
  ])(
    '%s: the run’s span is the child of TRACEPARENT, and the command gets the run’s own',
    async (_, flags) => {
      const spans = newSpanFile();
      const result = await execa(
        process.execPath,
        [
          '--import',
          SPAN_FILE_SETUP,
          CLI,
          'exec',
          ...flags,
          '--',
          'sh',
          '-c',
          'echo "$TRACEPARENT $TRACESTATE"',
        ],
        {
          reject: false,
          env: {
            SLUICE_TEST_SPANS: spans,
            TRACEPARENT: `00-${PARENT.traceId}-${PARENT.spanId}-01`,
            TRACESTATE: 'ci=build-9',
          },
        },
      );
      expect(result.exitCode, result.stderr).toBe(0);
      const run = readSpanFile(spans).find((span) => span.name === 'exec sh');
      expect(run).toMatchObject({
        traceId: PARENT.traceId,
        parentSpanId: PARENT.spanId,
        traceState: 'ci=build-9',
        attributes: { 'sluice.run.kind': 'exec', 'process.exit.code': 0 },
      });
      expect(result.stdout).toContain(`00-${PARENT.traceId}-${run?.spanId}-01 ci=build-9`);
    },
  );

  it('without TRACEPARENT the run starts a trace of its own', async () => {
    const spans = newSpanFile();
    const result = await execa(process.execPath, ['--import', SPAN_FILE_SETUP, CLI, 'exec', '--', 'true'], {
      reject: false,
      env: { SLUICE_TEST_SPANS: spans, TRACEPARENT: '' },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const [run] = readSpanFile(spans);
    expect(run?.name).toBe('exec true');
    expect(run?.parentSpanId).toBeUndefined();
    expect(run?.traceId).not.toBe(PARENT.traceId);
  });
});
