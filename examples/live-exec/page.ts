/**
 * The live-exec page: starts a run, follows it with `fromEventSource` (from `sluice/browser`),
 * renders lines in `coalesce` batches (one DOM update per batch, so 100 000 lines/s do not freeze
 * the page), styles stderr apart, and cancels with an HTTP `DELETE`. Bundled by `server.ts`.
 */
import { type ChunkEvent, coalesce, fromEventSource } from '../../src/browser/index.js';

const MAX_NODES = 4000; // oldest batches are dropped past this many DOM nodes (the counts stay exact)

const out = document.querySelector<HTMLPreElement>('#out')!;
const status = document.querySelector<HTMLElement>('#status')!;
const cancel = document.querySelector<HTMLButtonElement>('#cancel')!;
let lines = 0;

function setState(state: string, text: string): void {
  document.body.dataset.state = state;
  status.textContent = text;
}

function render(batch: ChunkEvent[]): void {
  const fragment = document.createDocumentFragment();
  let kind = '';
  let text = '';
  const flush = () => {
    if (text === '') return;
    const span = document.createElement('span');
    span.className = kind;
    span.textContent = text;
    fragment.append(span);
    text = '';
  };
  for (const event of batch) {
    if (event.kind !== 'stdout' && event.kind !== 'stderr') continue;
    if (event.kind !== kind) flush();
    kind = event.kind;
    text += String(event.content);
    lines += 1;
  }
  flush();
  const stick = out.scrollTop + out.clientHeight >= out.scrollHeight - 4;
  out.append(fragment);
  while (out.childNodes.length > MAX_NODES) out.firstChild?.remove();
  if (stick) out.scrollTop = out.scrollHeight;
}

function finish(event: ChunkEvent | undefined): void {
  cancel.disabled = true;
  const result = event?.content as { exitCode: number | null; signal: string | null } | null;
  if (event?.metadata?.reason === 'cancelled') setState('cancelled', `cancelled after ${lines} lines`);
  else if (event?.kind === 'exit' && result) {
    setState('exited', `exited with code ${result.exitCode ?? result.signal} after ${lines} lines`);
  } else setState('ended', `ended after ${lines} lines`);
}

async function start(): Promise<void> {
  setState('starting', 'starting…');
  const answer = await fetch('/runs', { method: 'POST' });
  const { events } = (await answer.json()) as { events: string };
  setState('running', 'running…');
  cancel.disabled = false;
  cancel.onclick = () => {
    cancel.disabled = true;
    setState('cancelling', 'cancelling…');
    void fetch(events, { method: 'DELETE' });
  };
  let last: ChunkEvent | undefined;
  fromEventSource(events, { retryMs: 250 })
    .pipe(coalesce({ maxDelayMs: 50, maxItems: 5000 }))
    .subscribe({
      next: (batch) => {
        last = batch[batch.length - 1] ?? last;
        render(batch);
        if (document.body.dataset.state === 'running') status.textContent = `running… ${lines} lines`;
      },
      complete: () => finish(last),
      error: (error: Error) => {
        cancel.disabled = true;
        setState('error', `error: ${error.message}`);
      },
    });
}

void start();
