import { readInteger } from './read-integer.js';

/** A terminal's size in character cells. */
export interface TerminalSize {
  readonly columns: number;
  readonly rows: number;
}

/** A terminal's size is two 16-bit fields (`struct winsize`). */
const MAX_CELLS = 65_535;

/** Reads `columns` and `rows` (default 80 × 24, each 1 to 65535): the one check of a terminal's size. */
export function readTerminalSize(options: object, prefix = ''): TerminalSize {
  const bounds = { min: 1, max: MAX_CELLS, prefix };
  return {
    columns: readInteger(options, 'columns', 80, bounds),
    rows: readInteger(options, 'rows', 24, bounds),
  };
}

/** Whether `value` is a `{ columns, rows }` a resize may emit. */
export function isTerminalSize(value: unknown): value is TerminalSize {
  const { columns, rows } = (value ?? {}) as Partial<TerminalSize>;
  const cells = (n: unknown) => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= MAX_CELLS;
  return cells(columns) && cells(rows);
}

/** The size a terminal run's event gives (`metadata.terminal`, set by `markTerminalSize`). */
export function terminalSizeOf(
  metadata: Readonly<Record<string, unknown>> | undefined,
): TerminalSize | undefined {
  const size = metadata?.terminal;
  return isTerminalSize(size) ? size : undefined;
}
