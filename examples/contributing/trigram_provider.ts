import { textToSend } from "../../src/embed/invocation.ts";
import { defineProvider } from "../../src/embed/provider_entry.ts";
import { finishVectors } from "../../src/embed/vectors.ts";

/** Length of a trigram vector: configs of this provider set `"dims": 256`. */
export const TRIGRAM_DIMS = 256;

/**
 * Counts of the text's character trigrams (lower-cased, padded with one
 * space each side), each hashed with FNV-1a into one of 256 buckets.
 * Deterministic and offline: the same text always gives the same vector.
 */
export function trigramCounts(text: string): number[] {
  const counts = new Array<number>(TRIGRAM_DIMS).fill(0);
  const padded = ` ${text.toLowerCase()} `;
  for (let i = 0; i + 3 <= padded.length; i++) {
    let h = 2166136261;
    for (let j = i; j < i + 3; j++) h = Math.imul(h ^ padded.charCodeAt(j), 16777619) >>> 0;
    counts[h % TRIGRAM_DIMS]++;
  }
  return counts;
}

/**
 * Registry entry: a dense, offline provider named `trigram`. The role's
 * prefix and `max_chars` apply through `textToSend`; `finishVectors` checks
 * the dims and L2-normalises when the config says `"normalize": true`.
 */
export const trigramEntry = defineProvider({
  name: "trigram",
  kind: "dense",
  hosted: false,
  create: (inv) =>
    Promise.resolve({
      kind: "dense",
      embed: (texts, role) => {
        const raw = texts.map((t) => trigramCounts(textToSend(inv, t, role)));
        return Promise.resolve(finishVectors(inv, raw, texts.length, `${role} batch`));
      },
    }),
});
