// Run by `npm run test:package` after the build, and by `.ci/run` on the oldest Node that
// package.json's `engines` allows (SLUICE_CONSUMER_NODE=<path of that node>): what a consumer of
// the published package runs works on that Node. The tarball `npm pack` makes is unpacked into a
// scratch project (its dependencies linked from this repository's node_modules, nothing else of
// the repository reachable), and there, on the consumer's Node:
//
// - `import` of every entry point, and `require` of every entry point (CommonJS);
// - the README snippets listed in SNIPPETS, taken from README.md as they are written (TypeScript
//   types stripped with esbuild), in a `"type": "module"` project as the README tells consumers,
//   none of which may leave a file in (or take one from) the folder it runs in;
// - the CLI: `sluice exec -- echo hi`, in text and `--json`.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));
const node = process.env.SLUICE_CONSUMER_NODE || process.execPath;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/**
 * README snippets run as they are: each is the first ```ts block that contains `marker`; `stdout`,
 * when given, is what it must print. A snippet missing from the README fails the check (update
 * this list with the README).
 */
const SNIPPETS = [
  {
    marker: "exec('sh', ['-c', 'echo one; echo two >&2; exit 3'])",
    stdout: '0 stdout "one\\n"\n1 stderr "two\\n"\nEXEC_FAILED: exit 3\n',
  },
  { marker: "const numbers = exec('seq', ['1', '100000'])", stdout: '1250025000\n' },
  { marker: 'lines.pipe(concatMap((line) => from(save(line))))', stdout: '500 500\n' },
  { marker: "const run$ = exec('seq', ['1', '10000']).pipe(share())", stdout: '10000\n' },
  { marker: "toReadableStream(exec('ls', ['/'])" },
  { marker: "exec('yes').pipe(stallTimeout({ ms: 300 }))" },
  { marker: "connectExtension(host, 'ext-a');\nconst stream = await api.exec('sh'" },
  { marker: 'const result = await dispatchToolCall({' },
  {
    marker: 'const cwd = mkdtempSync(',
    stdout: 'command 0 exited 0\ncommand 1 exited 0\ncommand 2 exited 3\nall 3 done\n',
  },
  { marker: "fakeExec({ stdout: '-a-b|', exit: { code: 2 } })", stdout: '' },
];

const ENTRIES = Object.keys(pkg.exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? 'sluice' : `sluice/${key.slice(2)}`));

const scratch = mkdtempSync(join(tmpdir(), 'sluice-consumer-'));
const failures = [];
try {
  // The package as published, unpacked where a consumer's npm would put it.
  const [{ filename }] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: root, encoding: 'utf8' }),
  );
  const modules = join(scratch, 'node_modules');
  mkdirSync(modules);
  execFileSync('tar', ['-xzf', join(scratch, filename), '-C', modules]);
  renameSync(join(modules, 'package'), join(modules, 'sluice'));
  for (const entry of readdirSync(join(root, 'node_modules'))) {
    if (entry.startsWith('.') || entry === 'sluice') continue;
    symlinkSync(join(root, 'node_modules', entry), join(modules, entry));
  }
  writeFileSync(
    join(scratch, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );

  const run = (name, args, expected) => {
    const result = spawnSync(node, args, { cwd: scratch, encoding: 'utf8', timeout: 60_000 });
    const problem =
      result.error?.message ??
      (result.status !== 0
        ? `exit ${result.status ?? result.signal}: ${result.stderr.trim().split('\n').slice(-3).join(' / ')}`
        : expected !== undefined && result.stdout !== expected
          ? `printed ${JSON.stringify(result.stdout)}, expected ${JSON.stringify(expected)}`
          : undefined);
    if (problem !== undefined) failures.push(`${name}: ${problem}`);
  };

  writeFileSync(
    join(scratch, 'entries.mjs'),
    ENTRIES.map(
      (entry, i) =>
        `import * as m${i} from '${entry}';\nif (Object.keys(m${i}).length === 0) throw new Error('${entry}: no exports');`,
    ).join('\n'),
  );
  run('import of every entry point', ['entries.mjs']);
  writeFileSync(
    join(scratch, 'entries.cjs'),
    `${ENTRIES.map((entry) => `if (Object.keys(require('${entry}')).length === 0) throw new Error('${entry}: no exports');`).join('\n')}
const { exec } = require('sluice');
const { lastValueFrom } = require('rxjs');
lastValueFrom(exec('echo', ['from require'])).then((last) => process.stdout.write(last.content.stdout));
`,
  );
  run('require of every entry point, and exec', ['entries.cjs'], 'from require\n');

  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);
  SNIPPETS.forEach(({ marker, stdout }, i) => {
    const block = blocks.find((text) => text.includes(marker));
    if (block === undefined) {
      failures.push(`README snippet with ${JSON.stringify(marker)}: not in README.md`);
      return;
    }
    const file = `snippet-${i}.js`;
    writeFileSync(join(scratch, file), transformSync(block, { loader: 'ts', format: 'esm' }).code);
    const before = readdirSync(scratch).filter((name) => name !== file);
    run(`README snippet ${JSON.stringify(marker)}`, [file], stdout);
    // The reader's folder is theirs: a snippet works in a scratch folder of its own, or reads only.
    const after = readdirSync(scratch).filter((name) => name !== file);
    if (after.join('\n') !== before.join('\n')) {
      failures.push(
        `README snippet ${JSON.stringify(marker)}: changed the folder it ran in (${after.filter((name) => !before.includes(name)).join(', ') || 'removed files'})`,
      );
    }
  });

  const cli = join(modules, 'sluice', pkg.bin.sluice);
  run('sluice exec -- echo hi', [cli, 'exec', '--', 'echo', 'hi'], 'hi\n');
  run('sluice exec --json -- echo hi', [cli, 'exec', '--json', '--', 'echo', 'hi']);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const version = execFileSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
if (failures.length > 0) {
  console.error(`The package as a consumer gets it, on Node ${version}:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log(
  `The package as a consumer gets it works on Node ${version}: import and require of ${ENTRIES.length} entry points, ${SNIPPETS.length} README snippets, the CLI.`,
);
