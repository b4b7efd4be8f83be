/** Texts and CPU time for the embedding benchmarks (`execret bench embed`). */
import { existsSync } from "node:fs";
import { pick, readTableRows } from "../../io/arrow_table.ts";
import { tablePath } from "../../io/paths.ts";
import { CORPUS } from "../../tables/schema.ts";

/** Edits that make near-identical copies, like the benchmark's single-edit distractors. */
export const EDITS: [RegExp, string][] = [[/</, "<="], [/\+/, "-"], [/==/, "!="], [/\b1\b/, "2"]];

/** CPU seconds of this process plus its waited-for children (Linux /proc; 0 elsewhere). */
export function cpuSeconds(): number {
  try {
    // utime, stime, cutime, cstime in clock ticks (100 per second), after the command name.
    const stat = Deno.readTextFileSync("/proc/self/stat");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ").slice(11, 15).map(Number);
    return f.reduce((a, b) => a + b, 0) / 100;
  } catch {
    return 0;
  }
}

/** `n` distinct code texts: the run's pool snippets, else built-in canonicals and edited copies. */
export async function benchTexts(n: number): Promise<{ texts: string[]; from: string }> {
  let pool: string[];
  let from: string;
  if (existsSync(tablePath("corpus"))) {
    from = tablePath("corpus");
    pool = [...new Set((await readTableRows(from, pick(CORPUS, "code"))).map((r) => r.code))];
    // Spread over the lengths, as the stage's batches are, rather than the first n.
    pool.sort((x, y) => x.length - y.length || (x < y ? -1 : 1));
    if (pool.length > n) {
      pool = Array.from({ length: n }, (_, i) => pool[Math.floor(i * pool.length / n)]);
    }
  } else {
    from = "data/builtin_tasks.jsonl";
    const path = new URL("../../../data/builtin_tasks.jsonl", import.meta.url);
    pool = (await Deno.readTextFile(path)).split("\n").filter((l) => l.trim() !== "")
      .map((l) => (JSON.parse(l) as { canonical: string }).canonical);
  }
  const seen = new Set<string>();
  const texts: string[] = [];
  for (let round = 0; texts.length < n && round < n; round++) {
    for (const code of pool) {
      if (texts.length >= n) break;
      // Round 0: the texts as they are; then single-edit copies, then marked copies.
      const edit = EDITS[(round - 1) % EDITS.length];
      let text = round === 0 ? code : round <= EDITS.length ? code.replace(edit[0], edit[1]) : code;
      if (round > EDITS.length || seen.has(text)) text = `${text}\n# copy ${round}`;
      if (seen.has(text)) continue;
      seen.add(text);
      texts.push(text);
    }
  }
  return { texts, from: texts.length < n ? `${from} (only ${texts.length} texts)` : from };
}
