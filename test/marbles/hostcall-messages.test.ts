import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// marbles/HOSTCALL.md is what another implementation reads to replay the scenario files: every
// message the host itself writes in them (an Error it makes, a stall warning) must be one of the
// templates that page quotes, spaces and backticks as they are, `<name>` standing for a value.

const folder = join(dirname(fileURLToPath(import.meta.url)), '../../marbles');
const page = readFileSync(join(folder, 'HOSTCALL.md'), 'utf8');

/** The codes of the Errors the host makes itself; the others in the files are the scripted producers'. */
const HOST_CODES = new Set(['INVALID_REQUEST', 'BUFFER_OVERFLOW']);

/** A quoted template as a whole-string pattern: `<anything>` matches any text. */
const pattern = (template: string) =>
  new RegExp(
    `^${template
      .split(/<[^>]+>/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+?')}$`,
  );

/** The templates the page quotes: `message: "…"` in Error outcomes, and the stall warning. */
const errorTemplates = [...page.matchAll(/message: "([^"]+)"/g)].map((match) => match[1] as string);
const logTemplates = [...page.matchAll(/`(Stream stalled: [^`]+)`/g)].map((match) => match[1] as string);

const scenarios = readdirSync(folder)
  .filter((name) => /^hostcall-.*\.json$/.test(name))
  .sort()
  .map((name) => ({ name, ...JSON.parse(readFileSync(join(folder, name), 'utf8')) }));

describe('the messages marbles/HOSTCALL.md quotes', () => {
  it('quotes a template for each kind of message the host writes', () => {
    expect(errorTemplates.length).toBeGreaterThanOrEqual(3);
    expect(logTemplates.length).toBeGreaterThanOrEqual(1);
  });

  it.each(scenarios)('$name: every Error the host made and every log is a quoted template', (scenario) => {
    const rows = scenario.expected.delivered as { error?: { code: string; message: string } }[];
    const messages = rows.flatMap((row) =>
      row.error !== undefined && HOST_CODES.has(row.error.code) ? [row.error.message] : [],
    );
    for (const message of messages) {
      expect(
        errorTemplates.some((template) => pattern(template).test(message)),
        message,
      ).toBe(true);
    }
    for (const log of scenario.expected.logs as string[]) {
      expect(
        logTemplates.some((template) => pattern(template).test(log)),
        log,
      ).toBe(true);
    }
  });
});
