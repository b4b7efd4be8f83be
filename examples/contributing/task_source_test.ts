/**
 * The worked example of CONTRIBUTING.md's "task source" section: the
 * `pyfiles:DIR` source, plugged into the registry the tasks stage resolves
 * source names with, as the one line in src/tasks/source_registry.ts would.
 */
import { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import { join } from "node:path";
import { SourceError } from "../../src/tasks/external.ts";
import { TASK_SOURCES } from "../../src/tasks/source_registry.ts";
import { buildTasks } from "../../src/tasks/tasks_stage.ts";
import { PYFILES_SOURCE } from "./task_source.ts";

// The one line: the registry with the new entry added.
const registry = { ...TASK_SOURCES, pyfiles: PYFILES_SOURCE };

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "execret-pyfiles-" });
  for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(join(dir, name), text);
  return dir;
}

Deno.test("pyfiles:DIR tasks come out of the tasks stage like any source's", async () => {
  const dir = await folder({
    "max3.py": [
      "# Return the largest of three numbers.",
      "def max3(a, b, c):",
      "    return max(a, max(b, c))",
      "",
      "assert max3(1, 2, 3) == 3",
      "assert max3(3, 2, 1) == 3",
      "",
    ].join("\n"),
    "broken.py": "# Add one.\ndef inc(x):\n    return x +\n\nassert inc(1) == 2\n",
    "notes.txt": "not a task",
  });
  try {
    const built = await buildTasks({
      sources: [`pyfiles:${dir}`, "builtin"],
      registry,
      quiet: true,
    });
    assertEquals(built.labels, ["pyfiles", "builtin"]);
    const ours = built.rows.filter((r) => r.source === "pyfiles");
    assertEquals(ours.map((r) => [r.task_id, r.entry_point, r.query, r.tests]), [[
      "pyfiles/max3",
      "max3",
      "Return the largest of three numbers.",
      ["assert max3(1, 2, 3) == 3", "assert max3(3, 2, 1) == 3"],
    ]]);
    assertEquals(ours[0].canonical, "def max3(a, b, c):\n    return max(a, max(b, c))\n");
    assertEquals(ours[0].domain_inferred, true);
    assertEquals(built.rejects.map((r) => [r.source, r.locator, r.reason.split(",")[0]]), [
      ["pyfiles", join(dir, "broken.py:1"), "does not parse: canonical"],
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("without the line, pyfiles is an unknown source; with it, it is listed", async () => {
  await rejects(
    buildTasks({ sources: ["pyfiles:x"], quiet: true }),
    (e) => e instanceof SourceError && e.message.startsWith('unknown source "pyfiles:x"'),
  );
  await rejects(
    buildTasks({ sources: ["pyfiles"], registry, quiet: true }),
    (e) =>
      e instanceof SourceError &&
      e.message.endsWith("jsonl:<path>, release:<dir> or pyfiles:<dir>)"),
  );
});
