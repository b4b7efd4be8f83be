/**
 * The Universal Sentence Encoder's tokenizer (a unigram, SentencePiece-style
 * model: the split of a text into vocabulary pieces whose scores add up
 * highest), giving exactly the ids `@energetic-ai/embeddings` 0.2.0 gives,
 * quirks included, in time linear in the text's length.
 *
 * Why our own: the package's tokenizer copies the rest of the text at every
 * position (quadratic in the length; about 15 s of the default run's ~6,700
 * texts) and walks an object-keyed trie. The ids must be the same, since the
 * model's vectors are compared to the bit with those of the package's own
 * path, so this one reproduces each rule the package's output depends on:
 *
 * - input: NFKC, then "▁" before the text and in place of every space;
 * - symbols are code points, pieces are vocabulary entries from index 6 on
 *   (a later duplicate replaces an earlier one), a `null` score counts as 0;
 * - a position no piece starts at gets the unknown id 0 (score 0, 1 symbol);
 * - per end position, candidates are taken by increasing start, and one
 *   replaces the best so far when its score is `>=` it, or when the best so
 *   far is exactly 0 (an unset best and a best of 0 look the same to it);
 * - the walk back steps by the UTF-16 length of each chosen piece's text
 *   (not its code points), and runs of unknown ids collapse into one.
 */

interface TrieNode {
  next: Map<number, TrieNode>;
  /** Vocabulary id of the piece ending here, or -1. */
  id: number;
  score: number;
}

/** A tokenizer: text in, vocabulary ids out. */
export interface UseTokenizer {
  encode(text: string): number[];
}

const SEPARATOR = "\u2581";
/** Entries 0..5 are the unknown, <s>, </s> and extra tokens: never matched. */
const RESERVED = 6;

/**
 * Build the tokenizer from the model's vocabulary (`[piece, score]` pairs, as
 * in the package's vocab.json). A score that is neither a number nor `null`
 * is an error naming its entry.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * const tok = useTokenizer([["<unk>", 0], ["<s>", 0], ["</s>", 0], ["a", 0], ["b", 0], ["c", 0],
 *   ["▁hi", -1], ["▁", -2], ["h", -3], ["i", -3]]);
 * deepStrictEqual(tok.encode("hi"), [6]);
 * ```
 */
export function useTokenizer(
  vocabulary: readonly (readonly [string, number | null])[],
): UseTokenizer {
  const root: TrieNode = { next: new Map(), id: -1, score: 0 };
  // How far the walk back steps over each id: the UTF-16 length of its text.
  const stepBack = new Int32Array(vocabulary.length);
  for (let i = 0; i < vocabulary.length; i++) {
    const [piece, raw] = vocabulary[i];
    if (typeof piece !== "string" || (raw !== null && typeof raw !== "number")) {
      throw new Error(`USE vocabulary entry ${i}: expected [string, number|null]`);
    }
    // (At least 1: an empty text would stall the walk, which the package never finishes.)
    stepBack[i] = Math.max(1, piece.length);
    if (i < RESERVED || piece.length === 0) continue;
    let node = root;
    for (const ch of piece) {
      const cp = ch.codePointAt(0)!;
      let child = node.next.get(cp);
      if (!child) {
        child = { next: new Map(), id: -1, score: 0 };
        node.next.set(cp, child);
      }
      node = child;
    }
    node.id = i;
    // null + x is 0 + x in the package's sums.
    node.score = raw ?? 0;
  }

  return {
    encode(text: string): number[] {
      const normalized = text.normalize("NFKC");
      const input = normalized.length > 0
        ? SEPARATOR + normalized.replaceAll(" ", SEPARATOR)
        : normalized;
      const symbols: number[] = [];
      for (const ch of input) symbols.push(ch.codePointAt(0)!);
      const n = symbols.length;
      const best = new Float64Array(n + 1);
      const words = new Int32Array(n + 1);
      // Relaxing forward, start by start, offers each end its candidates in
      // increasing start order: the order the package's backward pass uses.
      for (let start = 0; start < n; start++) {
        const base = best[start];
        let matched = false;
        let node = root.next.get(symbols[start]);
        for (let end = start + 1; node; end++) {
          if (node.id >= 0) {
            matched = true;
            const score = node.score + base;
            if (best[end] === 0 || score >= best[end]) {
              best[end] = score;
              words[end] = node.id;
            }
          }
          if (end >= n) break;
          node = node.next.get(symbols[end]);
        }
        if (!matched) {
          const end = start + 1;
          const score = 0 + base;
          if (best[end] === 0 || score >= best[end]) {
            best[end] = score;
            words[end] = 0;
          }
        }
      }
      const ids: number[] = [];
      let previousUnknown = false;
      for (let at = n; at > 0; at -= stepBack[words[at]]) {
        const id = words[at];
        if (!(previousUnknown && id === 0)) ids.push(id);
        previousUnknown = id === 0;
      }
      return ids.reverse();
    },
  };
}
