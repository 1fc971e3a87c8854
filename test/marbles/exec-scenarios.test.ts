import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SluiceError } from '../../src/core/errors/sluice-error.js';
import { exec } from '../../src/sources/exec.js';
import { newTestScheduler } from '../support/test-scheduler.js';

const scenarioSchema = z.strictObject({
  name: z.string(),
  spec: z.string(),
  process: z.strictObject({
    stdout: z.string().optional(),
    stderr: z.string().optional(),
    values: z.record(z.string(), z.string()).optional(),
    exit: z
      .union([
        z.strictObject({ code: z.number().int(), at: z.number().int().optional() }),
        z.strictObject({ signal: z.string(), at: z.number().int().optional() }),
        z.literal('hang'),
      ])
      .optional(),
    ignores: z.array(z.string()).optional(),
  }),
  options: z.strictObject({
    timeoutMs: z.number().int().optional(),
    forceKillAfterMs: z.number().int().optional(),
    reject: z.boolean().optional(),
  }),
  unsubscribe: z.string().optional(),
  expected: z.strictObject({
    marbles: z.string(),
    values: z.record(z.string(), z.unknown()),
    error: z
      .strictObject({ name: z.string(), code: z.string(), message: z.string(), info: z.unknown() })
      .optional(),
  }),
  kills: z.array(z.strictObject({ at: z.number().int(), signal: z.string() })),
});

/** The error a scenario expects: compared by name, code, message and info (never by stack). */
function expectedError(spec: { name: string; code: string; message: string; info: unknown }): SluiceError {
  const error = new SluiceError(spec.code, spec.message, { info: spec.info });
  Object.defineProperty(error, 'name', { value: spec.name });
  return error;
}

const folder = join(import.meta.dirname, '../../marbles');
const files = readdirSync(folder).filter((file) => file.startsWith('exec-') && file.endsWith('.json'));

describe('exec lifecycle scenarios (marbles/exec-*.json, a fake process under virtual time)', () => {
  it('covers happy, zero output, error after output, timeout with partial output and cancel', () => {
    expect(files.sort()).toEqual([
      'exec-cancel.json',
      'exec-error-after-output.json',
      'exec-happy-path.json',
      'exec-timeout-partial-output.json',
      'exec-zero-output.json',
    ]);
  });

  for (const file of files) {
    const scenario = scenarioSchema.parse(JSON.parse(readFileSync(join(folder, file), 'utf8')));
    it(`${file}: ${scenario.name}`, () => {
      const scheduler = newTestScheduler();
      scheduler.run(({ expectObservable, fakeExec, flush }) => {
        const port = fakeExec(scenario.process as Parameters<typeof fakeExec>[0]);
        const { error } = scenario.expected;
        expectObservable(exec('build', ['--all'], { ...scenario.options, port }), scenario.unsubscribe).toBe(
          scenario.expected.marbles,
          scenario.expected.values,
          error && expectedError(error),
        );
        flush();
        expect(port.kills).toEqual(scenario.kills);
        expect(port.running).toBe(0);
      });
    });
  }
});
