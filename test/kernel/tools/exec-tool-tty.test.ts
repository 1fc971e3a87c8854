import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CancelledError, isCancelledError } from '../../../src/core/errors/cancelled-error.js';
import { dispatchToolCall } from '../../../src/kernel/tools/dispatch-tool-call.js';
import { execToolArgsSchema } from '../../../src/kernel/tools/exec-tool-args.js';
import type { ExecToolResult, ExecToolWireResult } from '../../../src/kernel/tools/exec-tool-result.js';
import type { ToolChunk, ToolResult } from '../../../src/kernel/tools/tool.js';
import { createToolRegistry, registerBuiltinTools } from '../../../src/kernel/tools/tool-registry.js';
import { pollUntil, processesWithTag } from '../../support/processes.js';
import { needs } from '../../support/system-tools.js';

const registry = registerBuiltinTools(createToolRegistry());

function run(args: Record<string, unknown>, onChunk?: (chunk: ToolChunk) => void, signal?: AbortSignal) {
  return dispatchToolCall({
    msg: { op: 'tool_call', id: 1, name: 'Exec', args },
    pid: 7,
    registry,
    onChunk,
    signal,
  });
}

const answer = (result: ToolResult) => {
  if (!result.ok) throw new Error(`Exec failed: ${result.error.code} ${result.error.message}`);
  return result.value as ExecToolWireResult;
};

/** A progress bar redrawn 100 times with `\r` (and coloured), then a last line. */
const PROGRESS =
  'i=1; while [ $i -le 100 ]; do printf "\\r\\033[32m%3d%%\\033[0m working" $i; i=$((i+1)); done; echo; echo done';

describe.skipIf(!needs('linux', 'script'))('the Exec tool with tty: true', () => {
  it('hands over the finished lines: a 100-step `\\r` progress bar is one line, streamed once', async () => {
    const chunks: ToolChunk[] = [];
    const result = answer(
      await run(
        { argv: ['sh', '-c', PROGRESS], tty: true, stream: true },
        (chunk) => void chunks.push(chunk),
      ),
    );
    expect(result).toMatchObject({
      exit_code: 0,
      signal: null,
      stdout: '100% working\ndone\n',
      truncated: false,
    });
    expect(chunks).toEqual([
      { op: 'chunk', kind: 'stdout', content: '100% working\n', metadata: { tool: 'Exec' } },
      { op: 'chunk', kind: 'stdout', content: 'done\n', metadata: { tool: 'Exec' } },
    ]);
    // Without a listener, the same answer.
    const quiet = answer(await run({ argv: ['sh', '-c', PROGRESS], tty: true }));
    expect(quiet.stdout).toBe(result.stdout);
  });

  it.skipIf(!needs('python3'))(
    'runs the program on a terminal, stdout and stderr in one stream',
    async () => {
      const script =
        'import sys\nprint(sys.stdout.isatty(), sys.stdin.isatty())\nsys.stderr.write("on stderr\\n")';
      const result = answer(await run({ argv: ['python3', '-c', script], tty: true }));
      expect(result).toMatchObject({ exit_code: 0, stdout: 'True True\non stderr\n', stderr: '' });
    },
  );

  it('caps the finished lines at max_output_bytes and says so', async () => {
    const script = 'i=0; while [ $i -lt 200 ]; do echo "line $i of a long output"; i=$((i+1)); done';
    const result = answer(await run({ argv: ['sh', '-c', script], tty: true, max_output_bytes: 1024 }));
    expect(result.truncated).toBe(true);
    expect(result.stdout.length).toBeLessThanOrEqual(1024);
    expect(result.stdout.startsWith('line 0 of a long output\nline 1 of a long output\n')).toBe(true);
  });

  it('on cancel: every process of the session is gone, and the partial result holds the lines so far', async () => {
    const tag = `sluice-tool-tty-${randomUUID()}`;
    const printed = join(tmpdir(), `${tag}.printed`);
    const controller = new AbortController();
    // 30 lines on 24 rows: the first ones scroll off and are finished; the rest are still on the screen
    // when the cancel comes. The file says the program has written all 30 (cancelling at the first
    // chunk would race the program's own writes).
    const script = `for i in $(seq 0 29); do echo "line $i"; done; : > ${printed}; (exec -a ${tag} sleep 1000) & exec -a ${tag} sleep 1000`;
    const args = execToolArgsSchema.parse({ argv: ['bash', '-c', script], tty: true, stream: true });
    const call = Promise.resolve(
      registry.get('Exec')?.handler(args, {
        pid: 1,
        kernel: undefined,
        onChunk: () => {},
        signal: controller.signal,
      }),
    ).catch((thrown: unknown) => thrown);
    try {
      expect(await pollUntil(() => existsSync(printed), 30_000)).toBe(true);
    } finally {
      controller.abort();
    }
    const error = await call;
    rmSync(printed, { force: true });
    expect(isCancelledError(error)).toBe(true);
    const lines = Array.from({ length: 30 }, (_, n) => `line ${n}\n`).join('');
    // The lines, and nothing of `script` (it is not told to stop, so it never says "Session terminated"):
    // it exits with the command's 128 + SIGTERM.
    expect((error as CancelledError<ExecToolResult>).result).toMatchObject({ stdout: lines, exitCode: 143 });
    expect(await pollUntil(() => processesWithTag(tag).length === 0, 5_000)).toBe(true);
  });

  it('refuses a tty that is not a boolean, naming the field', async () => {
    expect(await run({ argv: ['true'], tty: 'yes' })).toEqual({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENTS',
        message: 'Invalid arguments of `Exec`: `tty` must be a boolean, got "yes" (string)',
      },
    });
  });
});
