/**
 * REFERENCE.md's "Running on many machines" example, as a user on a cluster
 * types it: with the `execret` command `make install` puts on PATH (the
 * launcher of scripts/install_execret.sh, in a temp prefix), run from a
 * folder outside the checkout, each `$I` line once per shard (N = 4), every
 * other line once. The final unsharded oracle executes no suite and the
 * final embed embeds no text: the shards did all of it.
 */
import { match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { seedSnapshot } from "../../src/oracle/pool.ts";
import { builtinTaskLines } from "../support/builtin_tasks.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const REFERENCE = await Deno.readTextFile(join(ROOT, "REFERENCE.md"));
const N = 4;

/** The shell block of the reference's shard section. */
function shardExample(): string[] {
  const section = REFERENCE.slice(REFERENCE.indexOf("## Running on many machines"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  ok(block, "the section has a sh block");
  return block.split("\n").map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

Deno.test({
  name: "the reference's shard example runs as written with the installed execret command",
  sanitizeResources: false,
  async fn() {
    const work = await Deno.makeTempDir({ prefix: "execret-shards-" });
    const prefix = join(work, "prefix");
    const deno = Deno.execPath();
    const install = await new Deno.Command("sh", {
      args: [join(ROOT, "scripts", "install_execret.sh"), deno, prefix],
      stdout: "piped",
      stderr: "piped",
    }).output();
    strictEqual(install.code, 0, new TextDecoder().decode(install.stderr));
    const env = {
      PATH: `${prefix}/bin:${Deno.env.get("PATH")}`,
      HOME: Deno.env.get("HOME") ?? work,
      NO_COLOR: "1",
    };
    const sh = async (line: string, extra: Record<string, string> = {}) => {
      const r = await new Deno.Command("sh", {
        args: ["-c", line],
        cwd: work,
        clearEnv: true,
        env: { ...env, ...extra },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(r.stdout) + new TextDecoder().decode(r.stderr);
      strictEqual(r.code, 0, `${line}:\n${text.slice(-1500)}`);
      return text;
    };
    const tasks = join(work, "tasks.jsonl");
    const lines = await builtinTaskLines();
    await Deno.writeTextFile(tasks, lines.slice(0, 8).join("\n") + "\n");
    // "after `execret tasks` and `execret mutate`, same inputs everywhere"
    await sh(`execret tasks --source jsonl:${tasks} --quiet`);
    await sh("execret mutate --quiet");
    // Each machine's cache starts with the Pyodide snapshot (no result in it),
    // as the growth bench and the other tests do, to save a cold start each.
    for (let i = 0; i < N; i++) await seedSnapshot(join(work, `shard-${i}`));
    await seedSnapshot(join(work, "out", "cache"));
    const said: string[] = [];
    for (const line of shardExample()) {
      if (line.includes("$I")) {
        for (let i = 0; i < N; i++) said.push(await sh(line, { I: String(i), N: String(N) }));
      } else said.push(await sh(line));
    }
    const oracle = said.filter((t) => /oracle: \d+ suites executed/.test(t)).at(-1);
    match(oracle ?? "", /oracle: 0 suites executed, [1-9]\d* from cache/);
    const embed = said.filter((t) => /use: \d+ vectors/.test(t)).at(-1);
    match(embed ?? "", /use: \d+ vectors × 512 → .*\(0 embedded, [1-9]\d* cached/);
    ok((await Deno.stat(join(work, "out", "tables", "queries.arrow"))).isFile);
    await Deno.remove(work, { recursive: true });
  },
});
