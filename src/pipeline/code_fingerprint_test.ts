import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { moduleGraph, REPO_ROOT } from "./code_fingerprint.ts";
import { fingerprint } from "./stamp.ts";
import { STAGES } from "./stages.ts";
import { DRIVER_PATHS } from "../oracle/driver_source.ts";
import { loadProfile } from "./profile.ts";

/** A scratch copy of the repository's code (node_modules linked, not copied). */
async function copyRepo(): Promise<string> {
  const root = await Deno.makeTempDir();
  const copy = await new Deno.Command("cp", {
    args: ["-r", ...["src", "data", "deno.json"].map((p) => join(REPO_ROOT, p)), root],
  }).output();
  if (!copy.success) throw new Error("cp failed");
  await Deno.symlink(join(REPO_ROOT, "node_modules"), join(root, "node_modules"));
  return root;
}

/** Run `body` with the output tree in a scratch folder (tables are stage inputs). */
async function withScratchOut<T>(body: () => Promise<T>): Promise<T> {
  const prev = Deno.env.get("EXECRET_OUT");
  Deno.env.set("EXECRET_OUT", await Deno.makeTempDir());
  try {
    return await body();
  } finally {
    if (prev === undefined) Deno.env.delete("EXECRET_OUT");
    else Deno.env.set("EXECRET_OUT", prev);
  }
}

Deno.test("an edit reruns exactly the stages whose module graph holds the file", async () => {
  const root = await copyRepo();
  const profile = loadProfile("default");
  await withScratchOut(async () => {
    const keys = async () => {
      const k: Record<string, string> = {};
      for (const s of STAGES) k[s.name] = await fingerprint(await s.inputs(profile), root);
      return k;
    };
    let before = await keys();
    /** Apply the edits; return the stages whose fingerprint changed. */
    const rerun = async (...edits: [string, string][]) => {
      for (const [path, text] of edits) {
        await Deno.mkdir(dirname(join(root, path)), { recursive: true });
        await Deno.writeTextFile(join(root, path), text, { append: true });
      }
      const after = await keys();
      const changed = STAGES.map((s) => s.name).filter((n) => after[n] !== before[n]);
      before = after;
      return changed;
    };
    // Stages added later (e.g. a release stage) may import these files too;
    // the six core stages must rerun exactly as their graphs say.
    const CORE = ["tasks", "mutate", "oracle", "embed", "score", "stats"];
    const core = (changed: string[]) => changed.filter((n) => CORE.includes(n));
    // The tasks and mutate stages share the Python parser in src/common; a
    // folder list of each stage's own folders would miss it.
    assertEquals(core(await rerun(["src/common/python_parser.ts", "\n// edited\n"])), [
      "tasks",
      "mutate",
    ]);
    // stats imports the scoring kernel from src/score; score alone ranks with the tie-break.
    assertEquals(core(await rerun(["src/score/dot_kernel.ts", "\n// edited\n"])), [
      "score",
      "stats",
    ]);
    assertEquals(core(await rerun(["src/score/tie_break.ts", "\n// edited\n"])), ["score"]);
    // Files loaded at run time outside the import graph.
    // Every file of the driver (driver_source.ts joins them), not just its head.
    for (const path of DRIVER_PATHS) {
      assertEquals(core(await rerun([path, "\n# edited\n"])), ["oracle"], path);
    }
    assertEquals(core(await rerun(["src/mutate/_mutate_worker.ts", "\n// edited\n"])), [
      "mutate",
    ]);
    // Files in no stage's graph: a new module, a test, a script.
    assertEquals(
      await rerun(
        ["src/mutate/unused_helper.ts", "export const x = 1;\n"],
        ["src/mutate/mutate_code_test.ts", "\n// edited\n"],
        ["scripts/new_script.ts", "console.log(1);\n"],
      ),
      [],
    );
  });
});

Deno.test("every file a stage's code loads by import.meta.url is fingerprinted", async () => {
  // The assets lists are kept by hand; this catches a new `new URL(...,
  // import.meta.url)` in a stage's graph that no list names.
  const profile = loadProfile("default");
  const unlisted: string[] = [];
  await withScratchOut(async () => {
    for (const s of STAGES) {
      const inputs = await s.inputs(profile);
      const assets = inputs.assets ?? [];
      // Committed inputs are named by absolute path (stages.ts `committed`): compare them relative.
      const covered = new Set(
        [...inputs.files, ...assets].map((f) =>
          f.startsWith(REPO_ROOT) ? relative(REPO_ROOT, f) : f
        ),
      );
      const packages = new Set(assets.filter((a) => a.startsWith("npm:")).map((a) => a.slice(4)));
      const roots = [inputs.entry, ...assets.filter((a) => a.endsWith(".ts"))];
      for (const r of roots) {
        const g = await moduleGraph(r);
        g.local.forEach((m) => covered.add(m));
        g.packages.forEach((p) => packages.add(p.replace(/^(@?[^@]+)@.*$/, "$1")));
      }
      for (const m of [...covered].filter((c) => c.endsWith(".ts"))) {
        const text = await Deno.readTextFile(join(REPO_ROOT, m)).catch(() => "");
        for (const hit of text.matchAll(/new URL\(\s*"([^"]+)",\s*import\.meta\.url\)/g)) {
          const target = relative(
            REPO_ROOT,
            fileURLToPath(new URL(hit[1], `file://${REPO_ROOT}${m}`)),
          );
          const pkg = target.match(/^node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1];
          // The root itself (the grammar path is joined under it) and the
          // config a subprocess reads for its import map (pins = packages).
          // A folder whose files the stage lists one by one (the leaderboard's
          // entries) is covered through them.
          const ok = target === "" || target === "deno.json" || covered.has(target) ||
            (pkg !== undefined && packages.has(pkg)) ||
            [...covered].some((c) => c.startsWith(`${target.replace(/\/$/, "")}/`));
          if (!ok) unlisted.push(`${s.name}: ${m} loads ${target}`);
        }
      }
    }
  });
  assertEquals(unlisted, []);
});
