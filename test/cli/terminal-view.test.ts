import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../support/processes.js';
import { CLI } from '../support/sluice-cli.js';
import { needs } from '../support/system-tools.js';

const socket = `sluice-test-${randomBytes(4).toString('hex')}`;
const scratch = mkdtempSync(join(tmpdir(), 'sluice-tty-'));
afterAll(() => {
  try {
    execFileSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
  } catch {
    // no server left
  }
  rmSync(scratch, { recursive: true, force: true });
});

const tm = (...args: string[]) =>
  execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
const screen = () => tm('capture-pane', '-p', '-t', 's').split('\n');
/** Lines of the screen that hold (a piece of) a status line: nothing else on it has a `·`. */
const statusRows = (rows: string[]) => rows.filter((row) => row.includes('·'));
const resize = (columns: number) => tm('resize-window', '-t', 's', '-x', String(columns), '-y', '14');

describe.skipIf(!needs('tmux'))('sluice on a terminal (a tmux pane)', () => {
  it('echoes the command; the status line fits 40 and 120 columns and is redrawn on resize, never twice', async () => {
    const done = join(scratch, 'done');
    const burst = join(scratch, 'burst');
    const answer = join(scratch, 'answer');
    // 20 lines and 20 warnings (so the status line is long: "(N stderr)") whenever the test
    // creates the burst file, until it creates the done file.
    const child = [
      'i=1',
      `while [ ! -e "${done}" ]; do`,
      `  if [ -e "${burst}" ]; then rm "${burst}"; j=0; while [ $j -lt 20 ]; do echo "line $i"; echo "warn $i" >&2; i=$((i+1)); j=$((j+1)); done; fi`,
      '  sleep 0.05',
      'done',
      `echo "it's done"`,
    ].join('\n');
    const command = `${process.execPath} ${CLI} exec --color -- sh -c '${child.replaceAll("'", "'\\''")}'; echo "exit=$?" > ${answer}; sleep 30`;
    writeFileSync(burst, '');
    tm('new-session', '-d', '-x', '40', '-y', '14', '-s', 's', command);

    let lastLine = 0;
    /** Polls the screen until `test` holds; returns the rows then. */
    const rowsWith = async (what: string, test: (rows: string[]) => boolean) => {
      let rows: string[] = [];
      const ok = await pollUntil(() => {
        rows = screen();
        return test(rows);
      }, 30_000);
      if (!ok) throw new Error(`the screen never showed ${what}:\n${rows.join('\n')}`);
      return rows;
    };
    /** Writes 20 more lines and waits for the last: the screen is then only new lines and the status. */
    const scroll = async () => {
      lastLine += 20;
      writeFileSync(burst, '');
      const history = () => tm('capture-pane', '-p', '-J', '-S', '-', '-t', 's');
      return rowsWith(`line ${lastLine} and warn ${lastLine}`, () => {
        const text = history();
        return text.includes(`line ${lastLine}\n`) && text.includes(`warn ${lastLine}\n`);
      });
    };

    /**
     * Waits until the status line has been redrawn at the new width twice (tmux applies a new size
     * to its pty a little after it rewraps its screen: lines drawn in between keep the old width).
     */
    const settled = async (what: string, fits: (row: string) => boolean) => {
      const seconds = (rows: string[]) => {
        const row =
          [...rows]
            .reverse()
            .find((candidate) => candidate.includes('·'))
            ?.trimEnd() ?? '';
        return fits(row) ? Number(/^(\d+\.\d)s ·/.exec(row)?.[1] ?? Number.NaN) : Number.NaN;
      };
      const since = seconds(await rowsWith(what, (rows) => !Number.isNaN(seconds(rows))));
      await rowsWith(`${what}, redrawn`, (rows) => seconds(rows) >= since + 0.2);
    };

    const first = await rowsWith('the status line', (rows) => rows.some((row) => /stderr\) ·/.test(row)));
    lastLine = 20;
    expect(first.length).toBeGreaterThan(0);
    const history = tm('capture-pane', '-p', '-S', '-', '-t', 's').split('\n');
    expect(history[0]).toMatch(/^\$ sh -c 'i=1$/); // the echo, quoted for a shell (its first line)
    const at40 = await scroll();
    expect(statusRows(at40), at40.join('\n')).toHaveLength(1);
    expect(statusRows(at40)[0]?.length).toBeLessThanOrEqual(39); // cut to the width, never wrapped
    expect(statusRows(at40)[0]).toMatch(/^\d+\.\ds · \d+ lines \(\d+ stderr\) · .*…$/);

    resize(120);
    await settled('the whole status line', (row) => /lines\/s$/.test(row));
    await scroll();
    const at120 = await scroll();
    expect(statusRows(at120), at120.join('\n')).toHaveLength(1);
    expect(statusRows(at120)[0]?.trimEnd()).toMatch(
      /^\d+\.\ds · \d+ lines \(\d+ stderr\) · [\d.]+ (B|KiB) · \d+ lines\/s$/,
    );

    resize(40); // the 50-odd column status line is rewrapped by the terminal: sluice clears it all
    await settled('the status line cut again', (row) => row.endsWith('…'));
    await scroll(); // (rows drawn while the terminal and sluice disagreed on the width scroll away)
    const again = await scroll();
    expect(statusRows(again), again.join('\n')).toHaveLength(1);
    expect(again.filter((row) => /lines\/s|KiB|stderr\)/.test(row) && !row.includes('·'))).toEqual([]);

    writeFileSync(done, '');
    // The summary quotes the whole command, which wraps over many rows at 40 columns: the last
    // output line may have scrolled off the pane, so the checks read the pane's history too.
    await rowsWith(
      'the summary',
      (rows) => rows.some((row) => row.includes(': exit 0 · ')) && existsSync(answer),
    );
    const paneHistory = tm('capture-pane', '-p', '-J', '-S', '-', '-t', 's');
    expect(paneHistory).toMatch(/^it's done$/m);
    expect(paneHistory).toMatch(/sluice: sh -c 'i=1[\s\S]*: exit 0 · /); // (wrapped)
    const joined = tm('capture-pane', '-p', '-J', '-t', 's').split('\n');
    expect(joined.filter((row) => /^\d+\.\ds · \d+ lines/.test(row))).toEqual([]); // no status line left
  });

  it('--stdin inherit: a prompt reads what is typed in the terminal, and sluice ends with it', async () => {
    const answer = join(scratch, 'prompt-answer');
    const command = `${process.execPath} ${CLI} exec --stdin inherit -- sh -c 'printf "name? "; read name; echo "hello $name"'; echo "exit=$?" > ${answer}; sleep 30`;
    tm('new-session', '-d', '-x', '80', '-y', '10', '-s', 'p', command);
    const pane = () => tm('capture-pane', '-p', '-t', 'p');
    expect(await pollUntil(() => pane().includes('name? '), 30_000)).toBe(true);
    tm('send-keys', '-t', 'p', 'Ada', 'Enter');
    expect(await pollUntil(() => pane().includes('hello Ada') && existsSync(answer), 30_000), pane()).toBe(
      true,
    );
    expect(readFileSync(answer, 'utf8')).toBe('exit=0\n');
  });
});
