/**
 * One rerank run shared by the tests of a test file: the quick profile on
 * the first 40 of its 71 built-in tasks (a `jsonl:` source; 60 CPU-s for
 * the test file with all 71, 45 with these), bm25 and tfidf, `+exec` on
 * both and their rrf fusion, native CPython for the suites (the runtime is
 * not what these tests check; the reranked numbers are the same under
 * Pyodide), and the site. The rerank
 * stage's checks and the "Closing the gap" page's checks read the same run,
 * which costs as much as both tests' other work together.
 */
import { join } from "node:path";
import { finish, quickSubsetProfile, reproduce } from "./_reproduce.ts";

/** The first this many built-in tasks (of 71): every check still has queries to spare. */
const TASKS = 40;

/** The reranked configs the shared run adds. */
export const RERANKERS = ["bm25+exec", "tfidf+exec", "rrf:bm25+tfidf"];

/** A finished run: its out folder and the profile file that made it (for reruns). */
export interface RerankRun {
  out: string;
  profile: string;
}

let run: Promise<RerankRun> | undefined;

/**
 * The shared run, made on first use through the real CLI (`execret
 * reproduce`, site included). Its folder is removed when the test file ends.
 */
export function rerankRun(): Promise<RerankRun> {
  run ??= (async () => {
    const root = await Deno.makeTempDir({ prefix: "execret-rerank-" });
    // Removed once every test of the importing file has run, whichever of them failed.
    globalThis.addEventListener("unload", () => Deno.removeSync(root, { recursive: true }));
    const profile = await quickSubsetProfile(root, TASKS, {
      name: "quick-rerank",
      configs: ["bm25", "tfidf"],
      rerankers: RERANKERS,
      runtime: "native",
      bootstrap: 200,
      site: true,
    });
    const out = join(root, "out");
    await finish(reproduce(out, profile, true));
    return { out, profile };
  })();
  return run;
}
