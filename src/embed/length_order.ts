/**
 * Run `fn` over the texts sorted by length and return its results in the
 * original order. Local transformer models pad each batch to its longest
 * text, so grouping similar lengths saves most of the padded work.
 */
export async function inLengthOrder<T>(
  texts: readonly string[],
  fn: (sorted: string[]) => Promise<T[]>,
): Promise<T[]> {
  const order = texts.map((_, i) => i).sort((a, b) => texts[a].length - texts[b].length || a - b);
  const results = await fn(order.map((i) => texts[i]));
  const out: T[] = new Array(texts.length);
  order.forEach((original, k) => out[original] = results[k]);
  return out;
}
