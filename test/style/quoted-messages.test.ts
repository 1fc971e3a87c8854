import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { lastValueFrom, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { exec, SluiceError, stallTimeout, toAsyncIterable } from '../../src/index.js';
import { createToolRegistry, registerBuiltinTools } from '../../src/kernel/index.js';
import { RedisRunStore } from '../../src/redis/index.js';
import { ChunkTestScheduler, createVirtualHost, withDemand } from '../../src/testing/index.js';
import { describeEnd, describeFailure } from '../../src/web/page/describe-end.js';
import { connectInMemory } from '../mcp/connect-in-memory.js';
import { fixture } from '../support/processes.js';
import { freePort } from '../support/redis-server.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { needs } from '../support/system-tools.js';

/**
 * Docs true to the code: every message the README and docs/*.md quote as sluice's own words is
 * marked `<!-- message: <id> -->`, right before the code span or fenced block that holds it, and
 * this test makes the code print it — by running the code path a reader would (the CLI, the MCP
 * server, the operator) — and compares. In a quote, `…` and a `<placeholder>` stand for any text,
 * and line breaks of a wrapped quote count as one space. A code span that reads like one of
 * sluice's messages but carries no mark fails too, so that a new quote cannot skip the check.
 */
const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const MARK =
  /<!-- message: ([a-z0-9-]+) -->\s*(?:```[a-z]*\n([\s\S]*?)\n```|``\s?([\s\S]+?)\s?``|`([^`]+)`)/g;
/** Code spans that read like sluice's own messages: these must be marked. */
const LOOKS_LIKE_A_MESSAGE =
  /^(?:sluice: |Expected |Invalid |Unknown |Stream stalled|Command was killed|Cancelled from|Connection lost|This run is)/;

/** How each marked message is made: the real code path, with the inputs the docs' example gives. */
const PRODUCERS: Record<string, () => Promise<string>> = {
  /** README, "Stall detection": `stallTimeout({ ms: 300 })`'s warning. */
  'stall-warning': async () => {
    const warnings: string[] = [];
    new ChunkTestScheduler().run(({ fakeExec, demand, expectChunks, flush }) => {
      const yes = fakeExec({ stdout: '-y-y-y', exit: 'hang' });
      const guarded = exec('yes', [], { port: yes }).pipe(
        stallTimeout({ ms: 300, logger: { warn: (text) => warnings.push(text) } }),
      );
      expectChunks(withDemand(demand('--p'), guarded)).toBe(
        '-y 300ms |',
        { y: 'y\n' },
        {
          kind: 'stdout',
          end: { metadata: { reason: 'stalled' } },
        },
      );
      flush();
    });
    return warnings[0] ?? '';
  },
  /** docs/protocol.md, "Stall": the host's warning for a stream whose consumer stopped pulling. */
  'kernel-stall-warning': async () => {
    const vhost = createVirtualHost();
    const { api } = vhost.extension('ext-a', { callIds: ['hc-1'] });
    vhost.script(
      'hc-1',
      Array.from({ length: 8 }, (_, n) => ({ at: (n + 1) * 10, chunk: `line ${n}` })),
    );
    const stream = api.exec('yes', { stream: true, bufferSize: 2, stallTimeoutMs: 30_000 });
    const first = stream.next();
    vhost.advance(10);
    vhost.tick();
    await first;
    vhost.advance(31_000);
    return vhost.logs[0] ?? '';
  },
  /** docs/cli.md: `sluice exec --timeout 5 -- ls` (the flag is `--timeout-ms`). */
  'cli-unknown-flag': () => cliMessage(['exec', '--timeout', '5', '--', 'ls']),
  /** docs/cli.md: `sluice exec --timeout-ms -5 -- ls`. */
  'cli-bad-value': () => cliMessage(['exec', '--timeout-ms', '-5', '--', 'ls']),
  /** docs/scaling.md, "What fails when": a store whose Redis is not listening. */
  'redis-unreachable': async () => {
    const store = new RedisRunStore({
      url: `redis://127.0.0.1:${await freePort()}`,
      failAfterMs: 30_000,
      failFast: true,
    });
    return new Promise<string>((resolve) => {
      store
        .read('build-7')
        .subscribe({ error: (error: Error) => resolve(error.message), complete: () => resolve('') });
    });
  },
  /** docs/protocol.md, "The bounded channel": a pull of 0 chunks ends the stream. */
  'host-invalid-pull': async () => {
    const vhost = createVirtualHost();
    const { api } = vhost.extension('ext-a', { callIds: ['hc-1'] });
    vhost.script('hc-1', [{ at: 10, chunk: 'line 0' }]);
    const stream = api.exec('make', { stream: true });
    const ended = stream.next().catch((error: Error) => error.message);
    vhost.host.pull('ext-a', 'hc-1', 0);
    vhost.runUntilIdle();
    return String(await ended);
  },
  /** README and docs/mcp.md: a call outside `--allow npm --allow git`. */
  'mcp-exec-refused': async () => {
    const { client, close } = await connectInMemory(registerBuiltinTools(createToolRegistry()), {
      allow: ['npm', 'git'],
    });
    try {
      const refused = await client.callTool({ name: 'Exec', arguments: { argv: ['rm', '-rf', 'build'] } });
      return (refused.content as { text: string }[])[0]?.text ?? '';
    } finally {
      await close();
    }
  },
  /** docs/cli.md: `sluice mcp` where the MCP SDK is not installed (hidden from `import`). */
  'peer-missing-cli': async () => {
    const { stderr } = await execa(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        './test/support/hide-peer.mjs',
        'src/cli/main.ts',
        'mcp',
        '--allow',
        'npm',
      ],
      { cwd: root, reject: false, env: { SLUICE_HIDE_PEERS: '@modelcontextprotocol/sdk' } },
    );
    return stderr;
  },
  /** docs/backpressure.md: `toAsyncIterable` (bufferSize 16) behind a source that ignores demand. */
  'ignored-demand-warning': async () => {
    const warnings: string[] = [];
    const subject = new Subject<number>();
    const iterator = toAsyncIterable(subject, {
      bufferSize: 16,
      logger: { warn: (text) => warnings.push(text) },
    })[Symbol.asyncIterator]();
    void iterator.next();
    for (let n = 0; n < 200 && warnings.length === 0; n += 1) subject.next(n);
    await iterator.return?.();
    return warnings[0] ?? '';
  },
  /** docs/protocol.md: a child killed by its cpu rlimit. */
  'exec-cpu-limit': async () => {
    const spin = exec('python3', [fixture('exec-spin.py')], { rlimits: { cpuSeconds: 1 } });
    return lastValueFrom(spin).then(
      () => '',
      (error: Error) => error.message,
    );
  },
  /** docs/web.md: the page's footer after Ctrl-C in the terminal that runs the command. */
  'page-cancelled-from-terminal': async () =>
    describeEnd({ kind: 'end', content: null, metadata: { reason: 'cancelled', by: 'terminal' } }, false)
      .text,
  /** docs/web.md: the page's footer once its server is gone (following failed after its retries). */
  'page-connection-lost': async () => describeFailure(new SluiceError('HTTP_FAILED', 'fetch failed')).text,
  /** docs/web.md: the page of a run the server's registry has freed. */
  'page-run-not-held': async () =>
    describeFailure(new SluiceError('HTTP_STATUS', 'HTTP 404', { info: { status: 404 } })).text,
};
/** What `sluice <argv>` says on its first line of stderr, after its `sluice: ` prefix. */
async function cliMessage(argv: string[]): Promise<string> {
  const { stderr } = await runCliInProcess(argv);
  return (stderr.split('\n')[0] ?? '').replace(/^sluice: /, '');
}

/** Producers that need system tools this machine may lack (the skip summary names them). */
const NEEDS: Record<string, () => boolean> = {
  'exec-cpu-limit': () => needs('prlimit', 'python3'),
};

interface Quote {
  readonly where: string;
  readonly id: string;
  readonly text: string;
}

const pages = [
  'README.md',
  ...readdirSync(resolve(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const read = (page: string) => readFileSync(resolve(root, page), 'utf8');

function quotes(): Quote[] {
  return pages.flatMap((page) =>
    [...read(page).matchAll(MARK)].map((match) => ({
      where: `${page}:${read(page).slice(0, match.index).split('\n').length}`,
      id: match[1] as string,
      text: (match[2] ?? match[3] ?? match[4]) as string,
    })),
  );
}

/** The quote as a pattern: `…` and `<placeholder>` match any text; any run of spaces is one. */
function patternOf(quote: string): RegExp {
  const flat = quote.replace(/\s+/g, ' ').trim();
  const parts = flat.split(/…|<[A-Za-z-]+>/);
  return new RegExp(`^${parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+?')}$`);
}

describe('messages quoted in the README and docs/', () => {
  const all = quotes();

  it('mark every quote of one of sluice’s messages, and each mark has a producer', () => {
    const unmarked = pages.flatMap((page) => {
      const text = read(page).replace(MARK, '');
      const blocks = [...text.matchAll(/^```[a-z]*\n([\s\S]*?)^```/gm)].flatMap((match) =>
        (match[1] as string).split('\n'),
      );
      const prose = text.replace(/^```[a-z]*\n[\s\S]*?^```/gm, '');
      const spans = [...prose.matchAll(/``\s?([^`][\s\S]*?)\s?``|`([^`]+)`/g)].map(
        (match) => (match[1] ?? match[2]) as string,
      );
      return [...blocks, ...spans]
        .filter((span) => LOOKS_LIKE_A_MESSAGE.test(span))
        .map((span) => `${page}: ${span}`);
    });
    expect(unmarked).toEqual([]);
    expect(all.filter((quote) => PRODUCERS[quote.id] === undefined).map((quote) => quote.where)).toEqual([]);
    expect(new Set(all.map((quote) => quote.id))).toEqual(new Set(Object.keys(PRODUCERS)));
  });

  it.each(all.map((quote) => [`${quote.where} (${quote.id})`, quote] as const))(
    '%s is what the code prints',
    async (_, quote) => {
      if (NEEDS[quote.id]?.() === false) return;
      const printed = (await (PRODUCERS[quote.id] as () => Promise<string>)()).replace(/\s+/g, ' ').trim();
      expect(printed).toMatch(patternOf(quote.text));
    },
  );
});
