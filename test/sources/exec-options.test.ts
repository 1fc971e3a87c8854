import { describe, expect, it } from 'vitest';
import { type ExecOptions, exec } from '../../src/index.js';
import type { ProcessPort } from '../../src/sources/exec.js';

/** A port that records whether anything was spawned. */
const spawned: string[] = [];
const port: ProcessPort = {
  spawn(request) {
    spawned.push(request.file);
    throw new Error('must not spawn');
  },
};

const cases: [string, unknown, string][] = [
  ['timeoutMs', -1, 'Expected the `timeoutMs` option to be a non-negative integer, got `-1` (number)'],
  ['timeoutMs', 1.5, 'Expected the `timeoutMs` option to be a non-negative integer, got `1.5` (number)'],
  ['timeoutMs', '10', 'Expected the `timeoutMs` option to be a non-negative integer, got `10` (string)'],
  ['maxLineBytes', 0, 'Expected the `maxLineBytes` option to be a positive integer, got `0` (number)'],
  [
    'maxOutputBytes',
    Number.NaN,
    'Expected the `maxOutputBytes` option to be a non-negative integer, got `NaN` (number)',
  ],
  [
    'forceKillAfterMs',
    -5,
    'Expected the `forceKillAfterMs` option to be a non-negative integer, got `-5` (number)',
  ],
  [
    'killSignal',
    'SIGNOPE',
    'Expected the `killSignal` option to be a signal name such as `SIGTERM`, got `SIGNOPE` (string)',
  ],
  ['reject', 'yes', 'Expected the `reject` option to be a boolean, got `yes` (string)'],
  ['lines', 1, 'Expected the `lines` option to be a boolean, got `1` (number)'],
  ['extendEnv', null, 'Expected the `extendEnv` option to be a boolean, got `null` (null)'],
  ['cwd', '', 'Expected the `cwd` option to be a non-empty string, got `` (string)'],
  ['env', { A: 1 }, 'Expected the `env` option to be an object of strings, got `{"A":1}` (object)'],
  [
    'input',
    42,
    'Expected the `input` option to be a string, a Uint8Array or an Observable, got `42` (number)',
  ],
  // Node fires a longer timer after ~1 ms: `timeoutMs: 3e9` would kill the child at once.
  [
    'timeoutMs',
    3e9,
    'Expected the `timeoutMs` option to be a non-negative integer up to 2147483647, got `3000000000` (number)',
  ],
  [
    'timeoutMs',
    Number.MAX_SAFE_INTEGER,
    'Expected the `timeoutMs` option to be a non-negative integer up to 2147483647, got `9007199254740991` (number)',
  ],
  [
    'forceKillAfterMs',
    2 ** 31,
    'Expected the `forceKillAfterMs` option to be a non-negative integer up to 2147483647, got `2147483648` (number)',
  ],
  ['rlimits', 'lots', 'Expected the `rlimits` option to be an object, got `lots` (string)'],
  ['scheduler', {}, 'Expected the `scheduler` option to be a SchedulerLike, got `{}` (object)'],
  ['port', { spawn: 1 }, 'Expected the `port` option to be a ProcessPort, got `{"spawn":1}` (object)'],
  [
    'demand',
    true,
    'Expected the `demand` option to be a Demand (`paused` and `onChange()`), got `true` (boolean)',
  ],
  [
    'cancelSignal',
    { aborted: false },
    'Expected the `cancelSignal` option to be an AbortSignal, got `{"aborted":false}` (object)',
  ],
  ['cleanup', 'no', 'Expected the `cleanup` option to be a boolean, got `no` (string)'],
  ['propagateTrace', 0, 'Expected the `propagateTrace` option to be a boolean, got `0` (number)'],
  ['traceCommandArgs', 'yes', 'Expected the `traceCommandArgs` option to be a boolean, got `yes` (string)'],
  [
    'encoding',
    'latin1',
    "Expected the `encoding` option to be `'utf8'` or `'buffer'`, got `latin1` (string)",
  ],
  // What the OS cannot pass, or would pass as something else, is refused before spawning.
  ['cwd', '/tm\0p', 'Expected the `cwd` option to be a string without NUL bytes, got `/tm\\u0000p` (string)'],
  [
    'env',
    { 'A=B': 'c' },
    'Expected the `env` option to be an object whose names are non-empty and contain no `=` or NUL, got `A=B` (string)',
  ],
  [
    'env',
    { '': 'c' },
    'Expected the `env` option to be an object whose names are non-empty and contain no `=` or NUL, got `` (string)',
  ],
  [
    'env',
    { A: 'x\0y' },
    'Expected the `env.A` option to be a string without NUL bytes, got `x\\u0000y` (string)',
  ],
];

describe('exec options', () => {
  it.each(cases)('rejects a bad `%s` (%s) before anything spawns', (field, value, message) => {
    expect(() => exec('true', [], { port, [field]: value } as ExecOptions)).toThrow(new TypeError(message));
    expect(spawned).toEqual([]);
  });

  it('names nested rlimits fields', () => {
    expect(() => exec('true', [], { port, rlimits: { cpuSeconds: 0 } })).toThrow(
      new TypeError('Expected the `rlimits.cpuSeconds` option to be a positive integer, got `0` (number)'),
    );
    expect(() => exec('true', [], { port, rlimits: { openFiles: -1 } })).toThrow(
      'Expected the `rlimits.openFiles` option to be a positive integer, got `-1` (number)',
    );
  });

  it('checks `tty` and names its nested fields', () => {
    expect(() => exec('true', [], { port, tty: 'yes' } as unknown as ExecOptions)).toThrow(
      new TypeError(
        'Expected the `tty` option to be a boolean or an object (`columns`, `rows`, `resize`), got `yes` (string)',
      ),
    );
    expect(() => exec('true', [], { port, tty: { columns: 0 } })).toThrow(
      new TypeError('Expected the `tty.columns` option to be a positive integer, got `0` (number)'),
    );
    expect(() => exec('true', [], { port, tty: { rows: 70_000 } })).toThrow(
      new TypeError(
        'Expected the `tty.rows` option to be a positive integer up to 65535, got `70000` (number)',
      ),
    );
    expect(() => exec('true', [], { port, tty: { resize: [] } } as unknown as ExecOptions)).toThrow(
      new TypeError('Expected the `tty.resize` option to be an Observable, got `[]` (array)'),
    );
    expect(() => exec('true', [], { port, tty: { cols: 80 } } as ExecOptions)).toThrow(
      new TypeError('Unknown `tty.cols` option (known options: columns, rows, resize)'),
    );
    expect(spawned).toEqual([]);
  });

  it('rejects a misspelt option, at the top level and in rlimits, instead of running without it', () => {
    expect(() => exec('ls', [], { port, timeout: 100 } as ExecOptions)).toThrow(
      new TypeError(
        'Unknown `timeout` option (known options: cwd, env, extendEnv, input, lines, encoding, maxLineBytes, ' +
          'maxOutputBytes, timeoutMs, reject, killSignal, forceKillAfterMs, rlimits, containment, limits, cancelSignal, cleanup, ' +
          'propagateTrace, traceCommandArgs, scheduler, port, demand, tty)',
      ),
    );
    expect(() => exec('ls', [], { port, rlimits: { cpu: 1 } } as ExecOptions)).toThrow(
      new TypeError(
        'Unknown `rlimits.cpu` option (known options: cpuSeconds, addressSpaceBytes, fileSizeBytes, openFiles)',
      ),
    );
    expect(spawned).toEqual([]);
  });

  it('accepts the longest timer delay', () => {
    expect(() =>
      exec('true', [], { port, timeoutMs: 2_147_483_647, forceKillAfterMs: 2_147_483_647 }),
    ).not.toThrow();
  });

  it('checks the file and args arguments', () => {
    expect(() => exec('' as string)).toThrow(
      new TypeError('Expected the `file` argument to be a non-empty string, got `` (string)'),
    );
    expect(() => exec('true', ['ok', 3] as unknown as string[])).toThrow(
      new TypeError('Expected the `args` argument to be an array of strings, got `["ok",3]` (array)'),
    );
    // A NUL byte cannot reach the OS (Node throws from its spawn): named before anything spawns.
    expect(() => exec('tr\0ue', [], { port })).toThrow(
      new TypeError(
        'Expected the `file` argument to be a string without NUL bytes, got `tr\\u0000ue` (string)',
      ),
    );
    expect(() => exec('true', ['ok', 'a\0b'], { port })).toThrow(
      new TypeError(
        'Expected the `args[1]` argument to be a string without NUL bytes, got `a\\u0000b` (string)',
      ),
    );
    expect(spawned).toEqual([]);
  });

  it('accepts valid options without spawning until subscribe', () => {
    const source = exec('true', ['a'], {
      port,
      cwd: '/tmp',
      env: { A: 'x', B: undefined },
      extendEnv: false,
      input: 'hi',
      lines: false,
      maxLineBytes: 10,
      maxOutputBytes: 0,
      timeoutMs: 0,
      reject: false,
      killSignal: 'SIGINT',
      forceKillAfterMs: 0,
      rlimits: { cpuSeconds: 1, addressSpaceBytes: 1 << 30, fileSizeBytes: 0, openFiles: 10 },
      cancelSignal: new AbortController().signal,
      cleanup: false,
      propagateTrace: false,
      traceCommandArgs: true,
    });
    expect(source).toBeDefined();
    expect(spawned).toEqual([]);
  });
});
