import type { TerminalSize } from '../../core/terminal-size.js';
import type { TerminalView } from './terminal-view.js';

/** Where the page loads its terminal view from (`terminal-view.ts`, bundled with xterm.js). */
const TERMINAL_SCRIPT = '/assets/terminal.js';

/**
 * The page's pane for a terminal run: an xterm.js terminal in `container`, loaded on first use
 * (the page's own script stays small for every other run). What comes before it has loaded is
 * kept and written in order. The page replays the run from its first event, so a viewer who
 * attaches midway, or reloads, sees the screen as it is now, then the live output (docs/web.md,
 * "Terminal runs").
 */
export class TerminalPane {
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
