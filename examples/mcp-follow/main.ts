import { followExec } from './follow-exec.js';

// npx tsx examples/mcp-follow/main.ts <program> [args…]
// e.g. npx tsx examples/mcp-follow/main.ts npm run build
const argv = process.argv.slice(2);
if (argv.length === 0) {
  process.stderr.write('usage: tsx examples/mcp-follow/main.ts <program> [args…]\n');
  process.exit(2);
}
process.exitCode = await followExec(argv, (text) => process.stdout.write(text));
