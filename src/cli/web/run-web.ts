import type { Observable } from 'rxjs';
import type { EndSentinel } from '../../core/chunk.js';
import type { RunStore } from '../../runs/run-store.js';
import type { ExecEvent } from '../../sources/exec.js';
import { RunRegistry } from '../../web/run-registry.js';
import { startWebServer, type WebServer } from '../../web/start-web-server.js';
import { publishInterruptible } from '../cli-interruption.js';
import { execAsText, type TextOutputOptions } from '../exec-text.js';
import type { CliWebOptions } from '../parse-args.js';
import type { CliStreams } from '../text-view.js';

/** How long sluice waits, after the run ended, for open pages to receive the end. */
const FAREWELL_MS = 2000;

/** Where `sluice exec --web` keeps the run: a shared store (`--redis`), under an id, and the page's token. */
export interface CliWebRun {
  /** The run store shared with other servers (`--redis`); absent: the registry's own memory store. */
  readonly store?: RunStore | undefined;
  /** The run's id (`--run-id`); absent: a random one. */
  readonly runId?: string | undefined;
  /** The access token (`SLUICE_WEB_TOKEN`: the same on every server behind one load balancer). */
  readonly token?: string | undefined;
}

/**
 * `sluice exec --web`: runs the command exactly as `sluice exec` does, and serves a live page for
 * it (docs/web.md, "The CLI"). The run is published by an operator in the command's own pipeline,
 * so the terminal stays its primary consumer (a slow terminal pauses the command). sluice exits
 * when the run ends, once open pages have received the end (at most 2 s later).
 */
export async function runWeb(
  events: Observable<ExecEvent<string | Uint8Array> | EndSentinel>,
  web: CliWebOptions,
  io: CliStreams,
  options: TextOutputOptions,
  where: CliWebRun,
): Promise<number> {
  const registry = new RunRegistry({
    maxRuns: 1,
    ...(where.store === undefined ? {} : { store: where.store }),
  });
  let published: ReturnType<typeof registry.publish<ExecEvent<string | Uint8Array> | EndSentinel>>;
  try {
    published = registry.publish({
      command: options.echo ?? options.label,
      ...(where.runId === undefined ? {} : { id: where.runId }),
    });
  } catch (error) {
    await registry.close();
    io.stderr.write(`sluice: --web: ${(error as Error).message}\n`);
    return 2;
  }
  const { run, operator } = published;
  let server: WebServer;
  try {
    server = await startWebServer({
      registry,
      host: web.host,
      port: web.port,
      allowedHosts: web.allowHosts,
      home: () => run,
      ...(where.token === undefined ? {} : { token: where.token }),
    });
  } catch (error) {
    await registry.close();
    io.stderr.write(`sluice: --web: cannot serve on ${web.host}:${web.port}: ${(error as Error).message}\n`);
    return 1;
  }
  // With a shared store the run's own page: the same URL works on every server that shares it.
  const url =
    where.store === undefined
      ? server.url
      : `${server.origin}/runs/${encodeURIComponent(run.id)}?token=${server.token}`;
  io.stderr.write(`sluice: live page: ${url}\n`);
  try {
    return await execAsText(events.pipe(publishInterruptible(operator, options.signal)), io, options);
  } finally {
    const deadline = performance.now() + FAREWELL_MS;
    while (run.viewers > 0 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await server.close();
    await registry.close();
  }
}
