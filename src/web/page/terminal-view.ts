/**
 * The terminal view of the run page: the script served as `/assets/terminal.js` (bundled apart
 * from the page's own script, with xterm.js and its style sheet), which the page loads only when
 * the run turns out to be a terminal run (docs/web.md, "Terminal runs").
 */
import { Terminal } from '@xterm/xterm';
import xtermCss from '@xterm/xterm/css/xterm.css';
import type { TerminalSize } from '../../core/terminal-size.js';

/** What the page drives: output in, and the size the program's terminal has from now on. */
export interface TerminalView {
  write(text: string): void;
  resize(size: TerminalSize): void;
}

/** Colours of the page's dark pane (page.css), the 16 ANSI colours included. */
const THEME = {
  background: '#0d1117',
  foreground: '#d6dde8',
  cursor: '#d6dde8',
  black: '#6e7681',
  red: '#ff7b72',
  green: '#3fb950',
  yellow: '#d29922',
  blue: '#58a6ff',
  magenta: '#bc8cff',
  cyan: '#39c5cf',
  white: '#b1bac4',
  brightBlack: '#8b949e',
  brightRed: '#ffa198',
  brightGreen: '#56d364',
  brightYellow: '#e3b341',
  brightBlue: '#79c0ff',
  brightMagenta: '#d2a8ff',
  brightCyan: '#56d4dd',
  brightWhite: '#f0f6fc',
};

/**
 * Opens an xterm.js terminal of the run's size in `container`. It only shows: keys typed into it
 * go nowhere (a run's input is its own). `styleNonce` is the page's style nonce: xterm.js writes
 * its cell sizes and colours into `<style>` elements of its own, which the page's
 * Content-Security-Policy lets in only with that nonce (docs/web.md, "Safe by default").
 */
export function openTerminalView(
  container: HTMLElement,
  size: TerminalSize,
  styleNonce: string,
): TerminalView {
  nonceStyles(styleNonce);
  const style = document.createElement('style');
  style.textContent = xtermCss;
  document.head.append(style);
  const terminal = new Terminal({
    cols: size.columns,
    rows: size.rows,
    scrollback: 5000,
    disableStdin: true,
    cursorBlink: false,
    fontSize: 13,
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    theme: THEME,
  });
  terminal.open(container);
  return {
    write: (text) => terminal.write(text),
    resize: ({ columns, rows }) => {
      if (columns !== terminal.cols || rows !== terminal.rows) terminal.resize(columns, rows);
    },
  };
}

/** Every `<style>` element made from now on carries the page's nonce (xterm.js makes its own). */
function nonceStyles(nonce: string): void {
  const createElement = document.createElement.bind(document);
  document.createElement = ((tag: string, options?: ElementCreationOptions) => {
    const element = createElement(tag, options);
    if (tag.toLowerCase() === 'style') element.nonce = nonce;
    return element;
  }) as typeof document.createElement;
}
