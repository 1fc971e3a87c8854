/**
 * The text model of one line on the page, as a terminal would leave it: `\r` rewrites the line,
 * and SGR sequences of the replaced text still apply (docs/web.md, "The page"). Pure functions, no
 * DOM: the page's `LogView` keeps one {@link LineText} per line.
 */
export interface LineText {
  /** What the line shows (may hold escape sequences). */
  readonly text: string;
  /** SGR sequences from text a `\r` replaced, still in force at the start of `text`. */
  readonly carried: string;
  /** The last piece ended with `\r`: the next text replaces the line. */
  readonly returned: boolean;
}

const SGR = /\x1b\[[0-9;:]*m/g;
const MAX_CARRIED = 16;

/** A line with nothing on it yet. */
export function emptyLine(): LineText {
  return { text: '', carried: '', returned: false };
}

/** Appends `piece` (no `\n` in it) to `line`, applying its carriage returns. */
export function appendToLine(line: LineText, piece: string): LineText {
  if (piece === '') return line;
  if (!piece.includes('\r')) {
    return line.returned
      ? { text: piece, carried: activeSgr(line.carried + line.text), returned: false }
      : { text: line.text + piece, carried: line.carried, returned: false };
  }
  let { text, carried, returned } = line;
  const parts = piece.split('\r');
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index] as string;
    if (index > 0) returned = true;
    if (part === '') continue;
    if (returned) {
      carried = activeSgr(carried + text);
      text = part;
    } else text += part;
    returned = false;
  }
  return { text, carried, returned: parts[parts.length - 1] === '' };
}

/**
 * The SGR sequences of `text` still in force at its end: those after the last reset
 * (`ESC[0m`, `ESC[m`), at most the last 16. What a line hands on to the next line of its
 * stream, so colour set on one line and reset on a later one colours the lines between.
 */
export function activeSgr(text: string): string {
  if (!text.includes('\x1b')) return '';
  const sequences = text.match(SGR);
  if (sequences === null) return '';
  let start = 0;
  for (let index = 0; index < sequences.length; index += 1) {
    const params = (sequences[index] as string).slice(2, -1);
    if (params === '' || params === '0')
      start = index + 1; // a reset alone hands on nothing
    else if (params.startsWith('0;')) start = index;
  }
  const kept = sequences.slice(Math.max(start, sequences.length - MAX_CARRIED));
  return kept.join('');
}

/**
 * `text` without a trailing escape sequence cut in the middle (a line split by the source's
 * line limit can end inside one), so an ANSI renderer never holds it back for the next call.
 */
export function withoutCutEscape(text: string): string {
  const lastEscape = text.lastIndexOf('\x1b');
  if (lastEscape === -1) return text;
  const tail = text.slice(lastEscape);
  if (/^\x1b\[[0-9;:?]*[\x40-\x7e]/.test(tail) || /^\x1b\][^\x07]*(\x07|\x1b\\)/.test(tail)) return text;
  if (/^\x1b[^[\]]/.test(tail)) return text;
  // ESC alone, a CSI without its final byte, or an OSC without its terminator.
  const osc = text.lastIndexOf('\x1b]');
  if (osc !== -1 && !/\x07|\x1b\\/.test(text.slice(osc))) return text.slice(0, osc);
  return text.slice(0, lastEscape);
}
