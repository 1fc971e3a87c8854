/**
 * The largest index `<= index` at which `bytes` can be cut without splitting a UTF-8 character
 * (an invalid sequence may be cut anywhere). Used to cut over-long lines and the output cap.
 *
 * @example
 * ```ts
 * utf8Boundary(Buffer.from('a€'), 2); // 1: '€' is 3 bytes starting at 1
 * ```
 */
export function utf8Boundary(bytes: Uint8Array, index: number): number {
  if (index >= bytes.length) return bytes.length;
  if (index <= 0) return 0;
  let start = index;
  while (start > 0 && index - start < 3 && ((bytes[start] as number) & 0xc0) === 0x80) start -= 1;
  const lead = bytes[start] as number;
  if (lead < 0xc0) return index;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  return start + length > index ? start : index;
}
