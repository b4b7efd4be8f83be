import { sha256Hex } from "../io/hash.ts";

/** The seed the pipeline uses unless told otherwise (the paper's bootstrap seed). */
export const DEFAULT_SEED = 20260510;

/** What selection needs to know about a candidate. */
export interface Selectable {
  bug_type: string;
  operator: string;
  code: string;
  /** An extension operator's candidate (see {@link selectionOrder}); absent means the paper's. */
  extension?: boolean;
}

/**
 * The seeded key of one item: SHA-256 (hex) of `seed`, `taskId` and `text`
 * joined by NUL characters. A key depends only on its own item, never on
 * which other candidates exist or the order they were generated in, so adding
 * an operator does not reshuffle the rest, and any language can recompute it.
 */
export function seededKey(seed: number, taskId: string, text: string): string {
  return sha256Hex(`${seed}\u0000${taskId}\u0000${text}`);
}

/**
 * Order a task's candidates for the oracle: a seeded, deterministic order
 * that spreads bug types, so a prefix of any length holds at most one
 * candidate of each type before a second of any type, and likewise spreads
 * operators within a type.
 *
 * Generator: bug types are ranked by {@link seededKey}(seed, taskId,
 * "bug_type\0" + type), the paper's types before extension types (so a
 * round takes the paper's first, and a task whose paper types give enough
 * verified distractors keeps the paper's mix), operators within a type by the key of
 * "operator\0" + type + "\0" + operator, and candidates within an operator
 * by the key of their code; ties (only for equal codes, which dedup
 * excludes) fall back to the code itself. Then round-robin: the first
 * candidate of each type in type order, then the second of each, and so on;
 * each type's own sequence is a round-robin over its operators.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * const candidates = ["a", "b", "c"].flatMap((t) =>
 *   [1, 2].map((n) => ({ bug_type: t, operator: `${t}_op`, code: `${t}${n}` }))
 * );
 * const ordered = selectionOrder(candidates, { seed: DEFAULT_SEED, taskId: "mbpp/1" });
 * const firstThree = ordered.slice(0, 3).map((c) => c.bug_type);
 * deepStrictEqual([...firstThree].sort(), ["a", "b", "c"]); // one of each type first
 * ```
 */
export function selectionOrder<T extends Selectable>(
  candidates: readonly T[],
  options: { seed: number; taskId: string },
): T[] {
  const { seed, taskId } = options;
  const key = (text: string) => seededKey(seed, taskId, text);
  const byType = groupBy(candidates, (c) => c.bug_type);
  const ranked = rank([...byType.keys()], (t) => key(`bug_type\u0000${t}`));
  const isExtension = (type: string) => byType.get(type)!.some((c) => c.extension === true);
  const types = [...ranked.filter((t) => !isExtension(t)), ...ranked.filter(isExtension)];
  const typeSequences = types.map((type) => {
    const byOperator = groupBy(byType.get(type)!, (c) => c.operator);
    const operators = rank([...byOperator.keys()], (o) => key(`operator\u0000${type}\u0000${o}`));
    return roundRobin(operators.map((o) => rank(byOperator.get(o)!, (c) => key(c.code))));
  });
  return roundRobin(typeSequences);
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = keyOf(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** Items sorted by their key, then by their text form, so equal keys still order stably. */
function rank<T>(items: readonly T[], keyOf: (item: T) => string): T[] {
  const keyed = items.map((item) => ({ item, k: keyOf(item) }));
  keyed.sort((a, b) => compare(a.k, b.k) || compare(textForm(a.item), textForm(b.item)));
  return keyed.map((x) => x.item);
}

function textForm(item: unknown): string {
  return typeof item === "string" ? item : (item as Selectable).code;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** First of each sequence in order, then the second of each, and so on. */
function roundRobin<T>(sequences: readonly T[][]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...sequences.map((s) => s.length));
  for (let i = 0; i < longest; i++) {
    for (const s of sequences) if (i < s.length) out.push(s[i]);
  }
  return out;
}
