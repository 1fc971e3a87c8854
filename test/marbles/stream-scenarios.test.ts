import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Observable, OperatorFunction } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SluiceError } from '../../src/core/errors/sluice-error.js';
import { checkSequence } from '../../src/operators/check-sequence.js';
import { joinRuns } from '../../src/operators/join-runs.js';
import { sequenced } from '../../src/operators/sequenced.js';

const errorSchema = z.object({ code: z.string(), message: z.string() });
const sideSchema = z.object({
  marbles: z.string(),
  values: z.record(z.string(), z.unknown()).default({}),
  error: errorSchema.optional(),
});
const scenarioSchema = z.object({
  name: z.string(),
  spec: z.string(),
  pipeline: z.array(z.enum(['sequenced', 'checkSequence', 'joinRuns'])).min(1),
  source: sideSchema,
  expected: sideSchema,
  subscriptions: z.array(z.string()),
  unsubscribe: z.string().optional(),
});

const operators: Record<string, () => OperatorFunction<any, any>> = {
  sequenced: () => sequenced(),
  checkSequence: () => checkSequence(),
  joinRuns: () => joinRuns(),
};

const folder = join(import.meta.dirname, '../../marbles');
const files = readdirSync(folder).filter((file) => file.startsWith('stream-') && file.endsWith('.json'));

/** Errors are compared by code and message only, never by stack or class. */
function normalise(messages: unknown): unknown {
  return JSON.parse(
    JSON.stringify(messages, (_key, value) =>
      value instanceof Error ? { code: (value as SluiceError).code, message: value.message } : value,
    ),
  );
}

describe('marble scenarios (marbles/stream-*.json)', () => {
  it('finds the scenario files', () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
  });

  for (const file of files) {
    const scenario = scenarioSchema.parse(JSON.parse(readFileSync(join(folder, file), 'utf8')));
    it(`${file}: ${scenario.name}`, () => {
      const scheduler = new TestScheduler((actual, expected) => {
        expect(normalise(actual)).toEqual(normalise(expected));
      });
      scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
        const { source, expected } = scenario;
        const sourceError = source.error && new SluiceError(source.error.code, source.error.message);
        const input = cold(source.marbles, source.values, sourceError);
        const output = scenario.pipeline.reduce<Observable<unknown>>(
          (stream, name) => stream.pipe(operators[name]!()),
          input,
        );
        const expectedError = expected.error && new SluiceError(expected.error.code, expected.error.message);
        expectObservable(output, scenario.unsubscribe).toBe(expected.marbles, expected.values, expectedError);
        expectSubscriptions(input.subscriptions).toBe(scenario.subscriptions);
      });
    });
  }
});
