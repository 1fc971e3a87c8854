/**
 * The size {@link coalesce} counts for a chunk's content: the UTF-8 byte length of a string
 * (computed without encoding it; a lone surrogate counts 3, as its U+FFFD replacement), the
 * `byteLength` of a `Uint8Array` (any `ArrayBufferView`) or `ArrayBuffer`, and `0` for anything
 * else (`null` sentinels, objects). Internal to `src/operators`.
 *
 * @example
 * ```ts
 * chunkByteLength('héllo'); // 6
 * chunkByteLength(new Uint8Array(4)); // 4
 * chunkByteLength(null); // 0
 * ```
 */
export function chunkByteLength(content: unknown): number {
  if (typeof content === 'string') return utf8Length(content);
  if (ArrayBuffer.isView(content) || content instanceof ArrayBuffer) return content.byteLength;
  return 0;
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
