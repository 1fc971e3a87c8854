import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { quoteCommand } from '../../../src/sources/exec/quote-command.js';

describe('quoteCommand', () => {
  it('leaves safe words alone and single-quotes the others', () => {
    expect(quoteCommand('ls', ['-la', '/tmp/a.b', 'x=1'])).toBe('ls -la /tmp/a.b x=1');
    expect(quoteCommand('sh', ['-c', "echo it's done"])).toBe(`sh -c 'echo it'\\''s done'`);
    expect(quoteCommand('printf', ['', '$HOME', 'a b'])).toBe(`printf '' '$HOME' 'a b'`);
  });

  it('gives what a POSIX shell reads back as the same words', () => {
    const words = ['a b', "it's", '$HOME', '*', '', 'back\\slash', 'new\nline', '"q"'];
    const line = quoteCommand('printf', ['%s|', ...words]);
    expect(execFileSync('sh', ['-c', line], { encoding: 'utf8' })).toBe(
      words.map((word) => `${word}|`).join(''),
    );
  });
});
