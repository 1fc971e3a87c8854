import { describe, expect, it } from 'vitest';
import { activeSgr, appendToLine, emptyLine, withoutCutEscape } from '../../src/web/page/line-text.js';

const show = (...pieces: string[]) => pieces.reduce(appendToLine, emptyLine());

describe('the page line model', () => {
  it('a carriage return rewrites the line: a progress bar ends as its last state', () => {
    expect(show('10%\r20%\r30%').text).toBe('30%');
    expect(show('10%\r', '20%\r', '30%').text).toBe('30%'); // across chunks too
    expect(show('downloading', ' 50%').text).toBe('downloading 50%');
  });

  it('keeps the text before a trailing \\r until something replaces it (CRLF ends a line as it was)', () => {
    const line = show('done\r');
    expect(line.text).toBe('done');
    expect(line.returned).toBe(true);
    expect(appendToLine(line, 'again').text).toBe('again');
    expect(appendToLine(line, '').text).toBe('done');
  });

  it('carries the colour a replaced piece set on to the text that replaced it', () => {
    const line = show('\x1b[32m10%\r20%');
    expect(line.text).toBe('20%');
    expect(line.carried).toBe('\x1b[32m');
  });

  it('hands on the SGR sequences in force after the last reset', () => {
    expect(activeSgr('plain')).toBe('');
    expect(activeSgr('\x1b[1mA\x1b[0m\x1b[31mB')).toBe('\x1b[31m');
    expect(activeSgr('\x1b[31mred\x1b[m')).toBe('');
    expect(activeSgr('\x1b[4m\x1b[0;33mB')).toBe('\x1b[0;33m');
    expect(activeSgr('\x1b[1m'.repeat(40))).toBe('\x1b[1m'.repeat(16)); // bounded
  });

  it('drops an escape sequence cut at the end of a line, and only that', () => {
    expect(withoutCutEscape('red \x1b[3')).toBe('red ');
    expect(withoutCutEscape('red \x1b')).toBe('red ');
    expect(withoutCutEscape('a \x1b]8;;http://x')).toBe('a ');
    expect(withoutCutEscape('\x1b[31mred\x1b[0m')).toBe('\x1b[31mred\x1b[0m');
    expect(withoutCutEscape('\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\')).toBe(
      '\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\',
    );
    expect(withoutCutEscape('no escapes')).toBe('no escapes');
  });
});
