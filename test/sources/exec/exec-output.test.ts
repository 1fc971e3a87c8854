import { asyncScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { readExecOptions } from '../../../src/sources/exec/exec-options.js';
import { ExecOutput } from '../../../src/sources/exec/exec-output.js';
import type { ExecLineEvent } from '../../../src/sources/exec/exec-types.js';

const bytes = (text: string) => Buffer.from(text);

describe('ExecOutput', () => {
  it('numbers the lines of both pipes in arrival order and keeps the output for the result', () => {
    const seen: ExecLineEvent[] = [];
    const output = new ExecOutput(readExecOptions('x', [], { scheduler: asyncScheduler }), seen);
    output.read('stdout', bytes('a\nb'));
    output.read('stderr', bytes('oops\n'));
    output.read('stdout', bytes('c\n'));
    output.end('stdout');
    output.end('stderr');
    expect(seen.map((event) => [event.sequence, event.kind, event.content])).toEqual([
      [0, 'stdout', 'a\n'],
      [1, 'stderr', 'oops\n'],
      [2, 'stdout', 'bc\n'],
    ]);
    expect(output.next()).toBe(3);
    expect(output.stdout.text()).toBe('a\nbc\n');
    expect(output.stderr.text()).toBe('oops\n');
  });

  it('marks the pieces of a line longer than maxLineBytes as partial', () => {
    const seen: ExecLineEvent[] = [];
    const options = readExecOptions('x', [], { maxLineBytes: 4, scheduler: asyncScheduler });
    const output = new ExecOutput(options, seen);
    output.read('stdout', bytes('abcdefg\n'));
    expect(seen.map((event) => [event.content, event.metadata?.partial === true])).toEqual([
      ['abcd', true],
      ['efg\n', false],
    ]);
  });
});
