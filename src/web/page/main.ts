/**
 * The script of sluice's run page (bundled by esbuild with `sluice/browser`, rxjs and ansi_up;
 * served as `/assets/page.js`). It follows one run with `fromFetchStream` — from the start on
 * every load, so a reload or a second tab shows the same run, each line once — and
 * renders it with a {@link LogView} at most once per animation frame. (`fromFetchStream` rather
 * than `fromEventSource`: an `EventSource` dispatches one DOM event per line, slower at a high line
 * rate; docs/benchmarks.md, "The run page in Chromium".) A `gap` (events the server no longer holds) is shown as
 * such and following goes on after it. Cancel sends `DELETE`; the end of the run (exit code,
 * signal, timeout, who cancelled, a lost server) is shown in words.
 */
import { animationFrameScheduler, type Subscription } from 'rxjs';
import { fromFetchStream } from '../../browser/from-fetch-stream.js';
import type { ChunkEvent } from '../../core/chunk.js';
import { isSequenceError } from '../../core/errors/sequence-error.js';
import { formatBytes } from '../../core/format-bytes.js';
import { formatDuration } from '../../core/format-duration.js';
import { type TerminalSize, terminalSizeOf } from '../../core/terminal-size.js';
import { coalesce } from '../../operators/coalesce.js';
import { describeEnd, describeFailure, type EndDescription } from './describe-end.js';
import { LogView } from './log-view.js';
import type { TerminalView } from './terminal-view.js';

const MAX_LINES = 5000;

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector) as T;
const body = document.body;
const runId = body.dataset.run ?? '';
const base = `/runs/${encodeURIComponent(runId)}`;
const stateText = $('#state');
const elapsedText = $('#elapsed');
const linesText = $('#lines');
const bytesText = $('#bytes');
const trimmed = $('#trimmed');
const endText = $('#end');
const cancelButton = $<HTMLButtonElement>('#cancel');
const againButton = $<HTMLButtonElement>('#again');

const view = new LogView($('#log'), MAX_LINES);
/** The run's terminal, once its events say it is a terminal run (`metadata.terminal`). */
let terminal: TerminalPane | undefined;
const loadedAt = performance.now();
const elapsedAtLoad = Number(body.dataset.elapsed ?? 0);
let frozenElapsed: number | undefined;
let lines = 0;
let bytes = 0;
let cancelledHere = false;
let lastSequence: number | undefined;
let subscription: Subscription | undefined;

const encoder = new TextEncoder();
const utf8Length = (text: string): number => {
  for (let index = 0; index < text.length; index += 1) {
    if (text.charCodeAt(index) > 0x7f) return encoder.encode(text).length;
  }
  return text.length;
};

function setState(state: string, text: string): void {
  body.dataset.state = state;
  stateText.textContent = text;
}

function tick(): void {
  const ms = frozenElapsed ?? elapsedAtLoad + (performance.now() - loadedAt);
  const text = formatDuration(ms);
  if (elapsedText.textContent !== text) elapsedText.textContent = text;
}

function showCounts(): void {
  linesText.textContent = `${lines.toLocaleString('en')} ${lines === 1 ? 'line' : 'lines'}`;
  bytesText.textContent = formatBytes(bytes);
}

view.onRender = (hidden) => {
  showCounts();
  if (hidden > 0) {
    trimmed.hidden = false;
    trimmed.firstChild!.textContent = `${hidden.toLocaleString('en')} earlier lines are not shown here — `;
  }
};

function finish(end: EndDescription): void {
  view.render();
  frozenElapsed = end.durationMs ?? elapsedAtLoad + (performance.now() - loadedAt);
  tick();
  clearInterval(ticker);
  cancelButton.disabled = true;
  cancelButton.hidden = true;
  againButton.hidden = body.dataset.canStart !== '1';
  body.dataset.ok = String(end.ok);
  setState(end.state, end.label);
  endText.textContent = `${end.text} · ${linesText.textContent} · ${bytesText.textContent}`;
  endText.hidden = false;
}

/** Where the page loads its terminal view from (`terminal-view.ts`, bundled with xterm.js). */
const TERMINAL_SCRIPT = '/assets/terminal.js';

/**
 * The page's pane for a terminal run: an xterm.js terminal in `container`, loaded on first use
 * (the page's own script stays small for every other run). What comes before it has loaded is
 * kept and written in order. The page replays the run from its first event, so a viewer who
 * attaches midway, or reloads, sees the screen as it is now, then the live output (docs/web.md,
 * "Terminal runs").
 */
class TerminalPane {
  #view: TerminalView | undefined;
  #waiting: Array<(view: TerminalView) => void> = [];

  constructor(
    container: HTMLElement,
    size: TerminalSize,
    styleNonce: string,
    onFailure: (error: unknown) => void,
  ) {
    import(TERMINAL_SCRIPT).then(({ openTerminalView }: typeof import('./terminal-view.js')) => {
      const view = openTerminalView(container, size, styleNonce);
      this.#view = view;
      for (const step of this.#waiting) step(view);
      this.#waiting = [];
    }, onFailure);
  }

  write(text: string): void {
    this.#do((view) => view.write(text));
  }

  resize(size: TerminalSize): void {
    this.#do((view) => view.resize(size));
  }

  #do(step: (view: TerminalView) => void): void {
    if (this.#view === undefined) this.#waiting.push(step);
    else step(this.#view);
  }
}

/**
 * A terminal run's output is drawn by xterm.js in place of the log pane: from its first event that
 * gives the terminal's size; a later size is a resize.
 */
function showTerminal(size: { columns: number; rows: number }): TerminalPane {
  if (terminal !== undefined) {
    terminal.resize(size);
    return terminal;
  }
  const log = $('#log');
  const pane = document.createElement('main');
  pane.id = 'terminal';
  log.hidden = true;
  log.after(pane);
  body.dataset.view = 'terminal';
  const nonce = document.querySelector<HTMLLinkElement>('link[rel=stylesheet]')?.nonce ?? '';
  terminal = new TerminalPane(pane, size, nonce, (error) => finish(describeFailure(error)));
  return terminal;
}

function countLines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

function handle(batch: ChunkEvent[]): void {
  for (const event of batch) {
    lastSequence = event.sequence;
    if (event.kind === 'stdout' || event.kind === 'stderr') {
      if (typeof event.content !== 'string') continue;
      const size = terminalSizeOf(event.metadata);
      const pane = size === undefined ? terminal : showTerminal(size);
      bytes += utf8Length(event.content);
      if (pane !== undefined) {
        lines += countLines(event.content);
        pane.write(event.content);
        continue;
      }
      if (event.metadata?.partial !== true) lines += 1;
      view.push(event.kind, event.content);
    } else if (event.isFinal) {
      finish(describeEnd(event, cancelledHere));
    }
  }
  if (terminal !== undefined) showCounts(); // (the log pane shows them as it renders)
}

function follow(after: number | undefined): void {
  subscription?.unsubscribe();
  subscription = fromFetchStream(`${base}/events`, {
    ...(after === undefined ? {} : { after }),
    retryMs: 1000,
    maxRetries: 5,
  })
    .pipe(coalesce({ maxDelayMs: 0, maxItems: 2000, scheduler: animationFrameScheduler }))
    .subscribe({
      next: (batch) => {
        if (body.dataset.state === 'connecting') setState('running', 'running');
        handle(batch);
      },
      error: (error: unknown) => {
        if (isSequenceError(error) && error.info?.rule === 'gap' && error.info.received !== undefined) {
          const missing = error.info.received - (error.info.expected ?? 0);
          if (terminal === undefined) {
            view.gap(missing);
            lines += missing; // every event but the final one is a line
          } else
            terminal.write(
              `\r\n\x1b[33m⋯ ${missing} events skipped: the server no longer holds them\x1b[0m\r\n`,
            );
          follow(error.info.received - 1);
          return;
        }
        finish(describeFailure(error));
      },
    });
}

cancelButton.addEventListener('click', () => {
  cancelButton.disabled = true;
  cancelledHere = true;
  setState('cancelling', 'cancelling…');
  fetch(base, { method: 'DELETE' }).then(
    async (response) => {
      if (response.ok) return;
      cancelledHere = false;
      cancelButton.disabled = false;
      setState('running', `cancel refused: ${(await response.text()).slice(0, 200)}`);
    },
    () => setState('running', 'cancel failed: the server did not answer'),
  );
});

againButton.addEventListener('click', () => {
  againButton.disabled = true;
  fetch('/runs', { method: 'POST' }).then(async (response) => {
    if (!response.ok) {
      againButton.disabled = false;
      setState(body.dataset.state ?? 'exited', `could not start: ${(await response.text()).slice(0, 200)}`);
      return;
    }
    const { page } = (await response.json()) as { page: string };
    location.assign(page);
  });
});

// The server answered `?token=` with the cookie that carries it from now on: the token leaves the
// address bar (and so the history, bookmarks, screenshots) at once (docs/web.md).
const address = new URL(location.href);
if (address.searchParams.has('token')) {
  address.searchParams.delete('token');
  history.replaceState(history.state, '', address);
}

const ticker = setInterval(tick, 200);
tick();
showCounts();
cancelButton.disabled = false;
setState('connecting', 'connecting…');
follow(lastSequence);
