/**
 * A command line as a POSIX shell would need it typed: words of safe characters as they are,
 * anything else in single quotes (a `'` inside becomes `'\''`). What an `ExecResult`'s `command`
 * holds, what `sluice exec` echoes (`$ sh -c 'make -j8 && echo done'`) and shows on its live page.
 *
 * @example
 * ```ts
 * quoteCommand('sh', ['-c', "echo it's done"]); // `sh -c 'echo it'\''s done'`
 * ```
 */
export function quoteCommand(file: string, args: readonly string[]): string {
  return [file, ...args].map(quoteWord).join(' ');
}

function quoteWord(word: string): string {
  if (word !== '' && /^[\w./:=@%+,-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
