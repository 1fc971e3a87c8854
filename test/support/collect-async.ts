/** Every value of `iterable`, in order, read by `for await` to its end (or its error). */
export async function collectAsync<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const values: T[] = [];
  for await (const value of iterable) values.push(value);
  return values;
}
