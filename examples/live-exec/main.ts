/**
 * `npm run example:live [-- <command> [args…]]`: serves the live-exec page on
 * http://127.0.0.1:8080 (or `$PORT`). Without a command it runs a demo that writes to stdout and
 * stderr for a while.
 */
import { startLiveExecServer } from './server.js';

const DEMO = [
  'sh',
  '-c',
  'i=1; while [ $i -le 400 ]; do echo "line $i of 400"; if [ $((i % 25)) -eq 0 ]; then echo "warning at $i" >&2; fi; i=$((i+1)); sleep 0.05; done',
];

const [file, ...args] = process.argv.slice(2).length > 0 ? process.argv.slice(2) : DEMO;
const server = await startLiveExecServer({
  file: file ?? 'sh',
  args,
  port: Number(process.env.PORT ?? 8080),
});
console.log(`live-exec: open ${server.url} (Ctrl-C to stop)`);
const stop = () => {
  void server.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
