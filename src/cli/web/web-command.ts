import { CliUsageError, readIntegerFlag } from '../cli-usage-error.js';
import { parseSubcommandArgs } from '../parse-subcommand-args.js';
import { REDIS_CONNECTION_FLAGS, readRedisConnection } from '../redis-store-flags.js';
import { HELP_FLAG, type Subcommand, untilAborted } from '../subcommand.js';

/** The text `sluice web --help` prints. */
export const webHelpText = `sluice web — serve the live page of every run in a Redis

Usage:
  sluice web --redis <url> [--host <address>] [--port <n>] [--allow-host <name[:port]>]…

Serves each run's page — its output live, its download, its Cancel — whichever machine runs it
(\`sluice exec --redis\`, \`sluice exec --web --redis\`, a \`sluice worker\`); a terminal run
(\`sluice exec --tty --redis\`) is drawn in a terminal view. The address, with its access token, is
printed on stderr. Runs until SIGINT or SIGTERM, then exits 0.

Options:
  --redis <url>             the Redis the runs are published to (redis:// or rediss://); needs the
                            optional peer ioredis
  --redis-cluster <h:p,…>   the startup nodes of the Redis Cluster they are published to, instead
  --host <address>          the address to listen on (default: 127.0.0.1)
  --port <n>                the port (default: a free one)
  --allow-host <name[:port]>
                            another name the page is reached by (a load balancer); repeatable
  -h, --help                show this help

Environment:
  SLUICE_WEB_TOKEN          the access token (at least 16 characters; default: a random one). Give
                            every server behind one load balancer the same.

Examples:
  sluice web --redis redis://127.0.0.1:6379 --port 8080
  SLUICE_WEB_TOKEN=$(cat token) sluice web --redis redis://10.0.0.5:6379 --host 0.0.0.0 --port 8080 --allow-host builds.example.com
`;

const WEB_FLAGS = {
  ...HELP_FLAG,
  ...REDIS_CONNECTION_FLAGS,
  host: { type: 'string' },
  port: { type: 'string' },
  'allow-host': { type: 'string', multiple: true },
} as const;

const USAGE = 'sluice web --redis <url> [--host <address>] [--port <n>] [--allow-host <name[:port]>]';

/** `sluice web`: its help text says what it does. */
export const webCommand: Subcommand = {
  summary: `${USAGE}\n                            serve the live page of any run in Redis`,
  help: webHelpText,
  flags: WEB_FLAGS,
  run: async (argv, io, env, signal) => {
    const { values, positionals } = parseSubcommandArgs(argv, WEB_FLAGS);
    if (positionals.length > 0) {
      throw new CliUsageError(`Unexpected argument \`${positionals[0]}\`: \`${USAGE}\``);
    }
    const connection = readRedisConnection(values, USAGE);
    const port = readIntegerFlag('port', values.port as string | undefined, 0, 0, 65_535);
    const host = (values.host as string | undefined) ?? '127.0.0.1';
    if (host === '') throw new CliUsageError('`--host` expects an address or host name, got ``');
    const allowedHosts = (values['allow-host'] as unknown as string[] | undefined) ?? [];
    const token = env.SLUICE_WEB_TOKEN;
    if (token !== undefined && token.length < 16) {
      throw new CliUsageError('`SLUICE_WEB_TOKEN` must be at least 16 characters long');
    }
    const [{ RedisRunStore }, { RunRegistry }, { startWebServer }] = await Promise.all([
      import('../../redis/redis-run-store.js'),
      import('../../web/run-registry.js'),
      import('../../web/start-web-server.js'),
    ]);
    const store = new RedisRunStore(connection);
    const registry = new RunRegistry({ store, logDir: false });
    let server: Awaited<ReturnType<typeof startWebServer>>;
    try {
      server = await startWebServer({
        registry,
        host,
        port,
        allowedHosts,
        ...(token === undefined ? {} : { token }),
      });
    } catch (error) {
      io.stderr.write(`sluice web: cannot serve on ${host}:${port}: ${(error as Error).message}\n`);
      await store.close();
      return 1;
    }
    io.stderr.write(`sluice web: run pages at ${server.origin}/runs/<run-id>?token=${server.token}\n`);
    await untilAborted(signal);
    await server.close();
    await registry.close();
    await store.close();
    return 0;
  },
};
