// Run by `npm run test:package` after the build: what `npm install sluice rxjs` brings into an
// empty project, and what such a project gets from the parts that need an optional peer.
//
// The tarball `npm pack` makes is installed with the rxjs of the peer range into an empty folder,
// as a user's npm would (from the npm cache when it holds everything, `--offline`; else from the
// registry). Then, there:
//
// - at most MAX_PACKAGES packages and MAX_BYTES bytes in node_modules (the MCP SDK and ioredis are
//   optional peers: neither comes along);
// - `sluice exec -- echo hi` works;
// - without the optional peers, `sluice/mcp`, `sluice/redis`, `sluice mcp` and the Redis
//   subcommands say exactly what to install: a `PeerMissingError` (code `PEER_MISSING`) in the
//   library, the message and exit code 1 in the CLI — and `--help` still answers.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX_PACKAGES = 6;
const MAX_BYTES = 25 * 1000 * 1000;

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const failures = [];
const check = (what, ok, detail) => {
  if (!ok) failures.push(`${what}: ${detail}`);
};

/** Bytes of every file under `folder`. */
function bytesUnder(folder) {
  return readdirSync(folder).reduce((sum, name) => {
    const path = join(folder, name);
    const stat = statSync(path);
    return sum + (stat.isDirectory() ? bytesUnder(path) : stat.size);
  }, 0);
}

const scratch = mkdtempSync(join(tmpdir(), 'sluice-install-'));
let summary = '';
try {
  const [{ filename }] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: root, encoding: 'utf8' }),
  );
  writeFileSync(
    join(scratch, 'package.json'),
    JSON.stringify({ name: 'app', private: true, type: 'module' }),
  );
  const install = (mode) =>
    spawnSync(
      'npm',
      [
        'install',
        mode,
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `./${filename}`,
        `rxjs@${pkg.peerDependencies.rxjs}`,
      ],
      { cwd: scratch, encoding: 'utf8', timeout: 300_000 },
    );
  let installed = install('--offline');
  if (installed.status !== 0) installed = install('--prefer-offline');
  if (installed.status !== 0) throw new Error(`npm install failed: ${installed.stderr}`);

  const lock = JSON.parse(readFileSync(join(scratch, 'node_modules', '.package-lock.json'), 'utf8'));
  const packages = Object.keys(lock.packages).filter((path) => path.startsWith('node_modules/'));
  const bytes = bytesUnder(join(scratch, 'node_modules'));
  check(
    'packages installed',
    packages.length <= MAX_PACKAGES,
    `${packages.length} > ${MAX_PACKAGES}: ${packages.join(', ')}`,
  );
  check('size of node_modules', bytes <= MAX_BYTES, `${(bytes / 1e6).toFixed(1)} MB > ${MAX_BYTES / 1e6} MB`);
  for (const peer of ['ioredis', '@modelcontextprotocol/sdk', '@xterm/headless', '@xterm/addon-serialize']) {
    if (packages.includes(`node_modules/${peer}`))
      throw new Error(`${peer} was installed: it must be an optional peer`);
  }
  summary = `${packages.length} packages (${packages.map((path) => path.slice('node_modules/'.length)).join(', ')}), ${(bytes / 1e6).toFixed(1)} MB`;

  const node = (args) =>
    spawnSync(process.execPath, args, { cwd: scratch, encoding: 'utf8', timeout: 60_000 });
  const cli = join(scratch, 'node_modules', 'sluice', pkg.bin.sluice);
  const installCommand = (name) => `npm install "${name}@${pkg.peerDependencies[name]}"`;
  const needs = (feature, name) =>
    `${feature} needs the optional peer dependency \`${name}\`, which is not installed: run \`${installCommand(name)}\``;

  const hi = node([cli, 'exec', '--', 'echo', 'hi']);
  check(
    'sluice exec -- echo hi',
    hi.status === 0 && hi.stdout === 'hi\n',
    `exit ${hi.status}, ${hi.stdout}${hi.stderr}`,
  );

  for (const [args, feature, name] of [
    [['mcp', '--allow', 'echo'], 'sluice mcp', '@modelcontextprotocol/sdk'],
    [['follow', '--redis', 'redis://127.0.0.1:9', 'build-7'], 'sluice/redis', 'ioredis'],
    [['submit', '--redis', 'redis://127.0.0.1:9', '--', 'echo', 'hi'], 'sluice/redis', 'ioredis'],
    [['worker', '--redis', 'redis://127.0.0.1:9'], 'sluice/redis', 'ioredis'],
    [['web', '--redis', 'redis://127.0.0.1:9'], 'sluice/redis', 'ioredis'],
    [['exec', '--redis', 'redis://127.0.0.1:9', '--', 'echo', 'hi'], 'sluice/redis', 'ioredis'],
  ]) {
    const result = node([cli, ...args]);
    const expected = `sluice: ${needs(feature, name)}\n`;
    check(
      `sluice ${args.join(' ')} without ${name}`,
      result.status === 1 && result.stderr === expected && result.stdout === '',
      `exit ${result.status}, stdout ${JSON.stringify(result.stdout)}, stderr ${JSON.stringify(result.stderr)}`,
    );
    const help = node([cli, args[0], '--help']);
    check(
      `sluice ${args[0]} --help without ${name}`,
      help.status === 0 && help.stdout.includes('Usage:'),
      help.stderr,
    );
  }

  // The library: the entry points load, and what needs the peer throws the typed error.
  writeFileSync(
    join(scratch, 'peers.mjs'),
    `import { createToolRegistry } from 'sluice/kernel';
import { serveMcp } from 'sluice/mcp';
import { RedisRunStore } from 'sluice/redis';
import { isPeerMissingError } from 'sluice';
const seen = [];
try {
  await serveMcp(createToolRegistry(), { start: async () => {}, send: async () => {}, close: async () => {} });
} catch (error) {
  seen.push({ peer: isPeerMissingError(error), code: error.code, info: error.info, message: error.message });
}
try {
  new RedisRunStore({ url: 'redis://127.0.0.1:9' });
} catch (error) {
  seen.push({ peer: isPeerMissingError(error), code: error.code, info: error.info, message: error.message });
}
console.log(JSON.stringify(seen));
`,
  );
  const peers = node(['peers.mjs']);
  const expected = [
    ['sluice/mcp', '@modelcontextprotocol/sdk'],
    ['sluice/redis', 'ioredis'],
  ].map(([feature, name]) => ({
    peer: true,
    code: 'PEER_MISSING',
    info: { packageName: name, range: pkg.peerDependencies[name], feature, install: installCommand(name) },
    message: needs(feature, name),
  }));
  check(
    'sluice/mcp and sluice/redis without their peers',
    peers.status === 0 && peers.stdout.trim() === JSON.stringify(expected),
    `exit ${peers.status}: ${peers.stdout}${peers.stderr}`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.error(`npm install of the packed package:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log(
  `npm install of the packed package with rxjs: ${summary}; without the optional peers, sluice/mcp, sluice/redis and the CLI say what to install.`,
);
