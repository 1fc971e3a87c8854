import type { ChunkEvent, ChunkMetadata } from '../core/chunk.js';
import { optionError } from '../core/option-error.js';

/** Options of the chunk marble helpers (`chunks`, `expectChunks().toBe`, {@link chunkMarbles}). */
export interface ChunkMarbleOptions {
  /** The `kind` of every event. Default `'chunk'`. */
  readonly kind?: string;
  /** Per-letter kinds, overriding `kind` (`{ e: 'stderr' }`). */
  readonly kinds?: Readonly<Record<string, string>>;
  /** Per-letter metadata (`{ p: { partial: true } }`). */
  readonly metadata?: Readonly<Record<string, ChunkMetadata>>;
  /** Letters whose event is the final one (`isFinal: true`); then `|` adds no sentinel. */
  readonly final?: string;
  /** The null sentinel `|` stands for without a final letter (default `{ kind: 'end' }`); `false`: a plain complete. */
  readonly end?: { readonly kind?: string; readonly metadata?: ChunkMetadata } | false;
}

/** A marble diagram rewritten for RxJS: one unique key per emission, `|` preceded by the sentinel. */
export interface ChunkMarbles<T> {
  /** The diagram to hand to `cold`, `hot` or `expectObservable(…).toBe`. */
  readonly marbles: string;
  /** The values of its keys. */
  readonly values: Readonly<Record<string, ChunkEvent<T>>>;
  /** The stamped event of each letter (its last occurrence), for assertions. */
  readonly events: Readonly<Record<string, ChunkEvent<T>>>;
  /** The null sentinel `|` stood for, if any. */
  readonly end: ChunkEvent<T> | undefined;
}

const SYNTAX = new Set(['-', '(', ')', '|', '#', '^', '!', ' ']);
const TIME_PROGRESSION = /^[0-9]+(?:\.[0-9]+)?(?:ms|s|m) /;
const KEY_BASE = 0xe000;

/**
 * Turns a marble diagram of *contents* into one of sequenced chunk events, numbered from 0 in
 * diagram order (a letter used twice gets two numbers); `|` becomes the null final sentinel then
 * complete, unless a letter is `final`; `#` stays an error. Pure: no scheduler needed.
 *
 * @example
 * ```ts
 * import { chunkMarbles } from 'sluice/testing';
 * const { marbles, values } = chunkMarbles('-a-b-|', { a: 'line 1\n', b: 'line 2\n' }, { kind: 'stdout' });
 * testScheduler.run(({ cold }) => cold(marbles, values)); // 0 'line 1\n', 1 'line 2\n', 2 end
 * ```
 */
export function chunkMarbles<T = string>(
  diagram: string,
  values: Readonly<Record<string, T>> = {},
  options: ChunkMarbleOptions = {},
): ChunkMarbles<T> {
  if (typeof diagram !== 'string') throw optionError('marbles', 'a string', diagram, 'argument');
  if (typeof values !== 'object' || values === null)
    throw optionError('values', 'an object', values, 'argument');
  if (typeof options !== 'object' || options === null)
    throw optionError('options', 'an object', options, 'argument');
  const kind = options.kind ?? 'chunk';
  if (typeof kind !== 'string') throw optionError('kind', 'a string', kind);
  const finals = options.final ?? '';
  if (typeof finals !== 'string') throw optionError('final', 'a string of letters', finals);
  const characters = [...diagram];
  const keyed: Record<string, ChunkEvent<T>> = {};
  const events: Record<string, ChunkEvent<T>> = {};
  let out = '';
  let sequence = 0;
  let depth = 0;
  let sawFinal = false;
  let end: ChunkEvent<T> | undefined;
  const stamp = (letter: string): ChunkEvent<T> => {
    const isFinal = finals.includes(letter);
    sawFinal ||= isFinal;
    const content = (Object.hasOwn(values, letter) ? values[letter] : letter) as T;
    const metadata = options.metadata?.[letter];
    const base = { sequence: sequence++, kind: options.kinds?.[letter] ?? kind, content };
    return metadata === undefined ? { ...base, isFinal } : { ...base, metadata, isFinal };
  };
  const key = (event: ChunkEvent<T>): string => {
    const name = String.fromCodePoint(KEY_BASE + Object.keys(keyed).length);
    keyed[name] = event;
    return name;
  };
  for (let index = 0; index < characters.length; index += 1) {
    const character = characters[index] as string;
    const atWordStart = index === 0 || characters[index - 1] === ' ';
    const progression = atWordStart ? TIME_PROGRESSION.exec(characters.slice(index).join('')) : null;
    if (progression !== null) {
      out += progression[0];
      index += [...progression[0]].length - 1;
    } else if (character === '|' && !sawFinal && options.end !== false) {
      const metadata = options.end?.metadata;
      const base = { sequence: sequence++, kind: options.end?.kind ?? 'end', content: null };
      end = metadata === undefined ? { ...base, isFinal: true } : { ...base, metadata, isFinal: true };
      out += depth > 0 ? `${key(end)}|` : `(${key(end)}|)`;
    } else if (SYNTAX.has(character)) {
      if (character === '(') depth += 1;
      if (character === ')') depth -= 1;
      out += character;
    } else {
      const event = stamp(character);
      events[character] = event;
      out += key(event);
    }
  }
  return { marbles: out, values: keyed, events, end };
}
