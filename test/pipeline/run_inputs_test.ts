/**
 * A run's results depend on its inputs and nothing else, and a run that
 * fails leaves the last complete run as it was. Each test here reproduces a
 * way main broke that (an edited `jsonl:` file ignored, `sql` overwriting a
 * result that the next run blessed, two profiles mixing their tables in one
 * folder, failures ending in a trace over half-replaced tables) through the
 * real CLI: a small bm25-only profile over a few built-in tasks, on the
 * native runtime (the oracle's runtime is beside the point here and native
 * starts in a fraction of Pyodide's time).
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { sha256Hex } from "../../src/io/hash.ts";
import { ended, execret, finish, reproduce, TEST_TIMEOUT_MS } from "./_reproduce.ts";
import { builtinTaskLines } from "../support/builtin_tasks.ts";

const MAIN = new URL("../../src/cli/main.ts", import.meta.url).pathname;
const QUICK = new URL("../../data/profiles/quick.json", import.meta.url);
const builtinLines = await builtinTaskLines();

/** Write the first `n` built-in tasks (after skipping `from`) to `path`. */
async function tasksFile(path: string, n: number, from = 0): Promise<string> {
  await Deno.writeTextFile(path, builtinLines.slice(from, from + n).join("\n") + "\n");
  return path;
}

/** A bm25-only quick profile over `source`, written under `root`; its path. */
async function profileFile(
  root: string,
  name: string,
  source: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const quick = JSON.parse(await Deno.readTextFile(QUICK));
  const path = join(root, `${name}.json`);
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      ...quick,
      name,
      sources: [`jsonl:${source}`],
      configs: ["bm25"],
      runtime: "native",
      timeout_ms: TEST_TIMEOUT_MS,
      bootstrap: 200,
      site: false,
      ...extra,
    }),
  );
  return path;
}

/** sha256 of every file of a run (outputs, stamps, manifest, settings), by path. */
function runState(out: string): Record<string, string> {
  const state: Record<string, string> = {};
  const walk = (rel: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(join(out, rel))];
    } catch {
      return;
    }
    for (const e of entries) {
      const path = `${rel}/${e.name}`;
      if (e.isDirectory) walk(path);
      else state[path] = sha256Hex(Deno.readFileSync(join(out, path)));
    }
  };
  for (const dir of ["tables", "parquet", "embeddings", "stamps"]) walk(dir);
  for (const f of ["manifest.json", "run.json"]) {
    state[f] = sha256Hex(Deno.readFileSync(join(out, f)));
  }
  return state;
}

/** A failed run's output ends in one line from the CLI, with no stack trace anywhere. */
function oneErrorLine(text: string, pattern: RegExp): string {
  ok(!/^\s+at /m.test(text), `a stack trace:\n${text.slice(-1500)}`);
  const last = text.trim().split("\n").pop()!;
  match(last, /^execret \w+: /);
  match(last, pattern);
  return last;
}

async function sql(out: string, query: string, ...flags: string[]) {
  return await ended(execret(out, ["sql", ...flags, query, "--format", "json"]));
}

/**
 * The rows of a query that must succeed: its exit code 0, its stdout JSON
 * and nothing on stderr (once, in a make test under load, something followed
 * the JSON; this says what, if it happens again).
 */
async function rows(out: string, query: string): Promise<unknown> {
  const { code, stdout, stderr } = await execret(out, ["sql", query, "--format", "json"]).output();
  const [o, e] = [new TextDecoder().decode(stdout), new TextDecoder().decode(stderr)];
  assertEquals({ code, stderr: e }, { code: 0, stderr: "" }, `stdout:\n${o}`);
  return JSON.parse(o);
}

const root = await Deno.makeTempDir({ prefix: "execret-inputs-" });

Deno.test({
  name: "an edited jsonl: task file reruns the tasks stage, from a profile or from --source",
  sanitizeResources: false,
  async fn() {
    const out = join(root, "edited");
    const file = await tasksFile(join(root, "edited.jsonl"), 6);
    const profile = await profileFile(root, "edited", file);
    await finish(reproduce(out, profile));
    await tasksFile(file, 8);
    const rerun = await finish(reproduce(out, profile));
    ok(!rerun.includes("tasks: up to date"), "the tasks stage saw the edit");
    assertEquals(await rows(out, "SELECT count(*) AS n FROM tasks"), [{ n: 8 }]);
    // The same through --source, which replaces the profile's sources.
    const other = await tasksFile(join(root, "other.jsonl"), 5, 10);
    await finish(reproduce(out, profile, false, ["--source", `jsonl:${other}`]));
    await tasksFile(other, 7, 10);
    await finish(reproduce(out, profile, false, ["--source", `jsonl:${other}`]));
    assertEquals(await rows(out, "SELECT count(*) AS n FROM tasks"), [{ n: 7 }]);
  },
});

Deno.test({
  name: "sql cannot change a result; a result changed anyway fails check and is recomputed",
  sanitizeResources: false,
  async fn() {
    const out = join(root, "sql");
    const profile = await profileFile(root, "sql", await tasksFile(join(root, "sql.jsonl"), 6));
    await finish(reproduce(out, profile));
    const metrics = join(out, "parquet", "metrics.parquet");
    const copy = `COPY (SELECT 1 AS x) TO '${metrics}' (FORMAT parquet)`;
    const refused = await sql(out, copy);
    assertEquals(refused.code, 1);
    oneErrorLine(refused.text, /read-only/);
    // --unrestricted can; then check says so, and the next run recomputes the file.
    assertEquals((await sql(out, copy, "--unrestricted")).code, 0);
    const check = await ended(execret(out, ["check"]));
    assertEquals(check.code, 1);
    match(check.text, /FAIL {2}manifest digests match the files — parquet\/metrics\.parquet/);
    const rerun = await finish(reproduce(out, profile));
    ok(!rerun.includes("stats: up to date"), "the run saw metrics.parquet changed");
    match(rerun, /execret check: all \d+ checks pass/);
    const [{ n }] = await rows(out, "SELECT count(*) AS n FROM metrics") as { n: number }[];
    ok(n > 1, `metrics has its ${n} rows again`);
  },
});

Deno.test({
  name: "a run of another profile on a folder in use is refused; one of the same profile waits",
  sanitizeResources: false,
  async fn() {
    const out = join(root, "shared");
    const file = await tasksFile(join(root, "shared.jsonl"), 6);
    const first = await profileFile(root, "first", file);
    const second = await profileFile(root, "second", file, { mutation_seed: 7 });
    // The test holds the oracle's stage lock, so the first run is certainly
    // still running (waiting there) when the others start.
    await Deno.mkdir(join(out, "locks"), { recursive: true });
    const held = await Deno.open(join(out, "locks", "oracle.lock"), { write: true, create: true });
    await held.lock(true);
    const running = reproduce(out, first);
    const reader = running.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    while (!seen.includes("waiting for another process to finish stage oracle")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the first run ended early:\n${seen}`);
      seen += value;
    }
    // On main it did not refuse but waited at the held lock: a limit, so that fails, not hangs.
    const other = reproduce(out, second);
    const limit = setTimeout(() => other.kill("SIGKILL"), 60_000);
    const refused = await ended(other);
    clearTimeout(limit);
    assertEquals(refused.code, 1, "the other profile's run was refused, not left waiting");
    oneErrorLine(refused.text, /is in use by a run of profile "first"/);
    const same = finish(reproduce(out, first));
    await held.unlock();
    held.close();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += value;
    }
    await running.stdout.cancel();
    assertEquals((await running.status).code, 0, seen.slice(-800));
    match(await same, /execret check: all \d+ checks pass/);
    // Once the folder is free, the other profile runs, and leaves only its own tables.
    match(await finish(reproduce(out, second)), /execret check: all \d+ checks pass/);
  },
});

Deno.test({
  name: "failures are one line and leave the last complete run as it was",
  sanitizeResources: false,
  async fn(t) {
    const out = join(root, "failures");
    const file = await tasksFile(join(root, "failures.jsonl"), 6);
    const profile = await profileFile(root, "failures", file);
    const done = await finish(reproduce(out, profile));
    // The summary counts rejects: inputs lost, and all of them.
    match(done, /^inputs lost: none/m);
    match(done, /^rejects: {2}oracle \d+/m);
    const complete = runState(out);

    const fails = async (args: string[], pattern: RegExp) => {
      const r = await ended(execret(out, args));
      assertEquals(r.code, 1, r.text.slice(-800));
      const line = oneErrorLine(r.text, pattern);
      assertEquals(runState(out), complete, `after: ${line}`);
      return line;
    };
    const source = async (name: string, text: string) => {
      const path = join(root, name);
      await Deno.writeTextFile(path, text);
      return ["reproduce", "--profile", profile, "--no-site", "--source", `jsonl:${path}`];
    };

    await t.step("a task file with no tasks stops at the tasks stage, naming it", async () => {
      const line = await fails(
        await source("empty.jsonl", ""),
        /no tasks from jsonl:.*empty\.jsonl/,
      );
      match(line, /holds the last complete run again/);
    });
    await t.step("so does one whose every row is rejected, with the first reject", async () => {
      await fails(
        await source("bad.jsonl", '{"query": "q"}\n{"nonsense": true}\n'),
        /no tasks from .*bad\.jsonl: 2 rejects .*first: .*bad\.jsonl:1: /,
      );
    });
    await t.step("tasks whose every canonical fails stop at the oracle", async () => {
      const broken = builtinLines.slice(0, 3).map((l) => {
        const task = JSON.parse(l);
        task.canonical = task.canonical.replace(/return [^\n]*/, "return None");
        return JSON.stringify(task);
      }).join("\n");
      await fails(await source("failing.jsonl", broken), /oracle: no task kept .*canonical_fails/);
    });
    await t.step("an unknown config, before any work", async () => {
      const bad = await profileFile(root, "unknown-config", file, { configs: ["bm25", "nope"] });
      await fails(["reproduce", "--profile", bad, "--no-site"], /unknown config "nope"/);
    });
    await t.step("--strict stops at the first stage that loses a task", async () => {
      const args = await source("one-bad.jsonl", builtinLines.slice(0, 4).join("\n") + "\n{}\n");
      await fails([...args, "--strict"], /--strict: stage tasks lost 1 rejects/);
    });
    await t.step("a failed site build is one line, and keeps the run", async () => {
      const blocker = join(root, "a-file");
      await Deno.writeTextFile(blocker, "");
      const site = await profileFile(root, "failures", file, { site: true });
      const r = await ended(
        new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", "--unstable-worker-options", "--cached-only", MAIN]
            .concat(["reproduce", "--profile", site]),
          env: {
            EXECRET_OUT: out,
            EXECRET_CACHE: `${out}/cache`,
            EXECRET_SITE_OUT: join(blocker, "site"),
          },
          stdout: "piped",
          stderr: "piped",
        }).spawn(),
      );
      assertEquals(r.code, 1);
      oneErrorLine(
        r.text,
        /site build failed .*: .*a-file is a file, not a folder; the run's tables are complete/,
      );
      assertEquals((await ended(execret(out, ["check"]))).code, 0, "the run itself is complete");
    });
    await t.step("an output folder that is a file, before any work", async () => {
      const blocker = join(root, "out-file");
      await Deno.writeTextFile(blocker, "");
      const r = await ended(execret(blocker, ["reproduce", "--profile", profile, "--no-site"]));
      assertEquals(r.code, 1);
      oneErrorLine(r.text, /output folder .*out-file is a file, not a folder/);
    });
    await t.step("temp files of writes a kill cut short are removed by the next run", async () => {
      const stale = join(out, "tables", "metrics.arrow.99999999.0123abcd.tmp");
      const cached = join(out, "cache", "segment.seg.99999999.0123abcd.tmp");
      await Deno.writeTextFile(stale, "half a table");
      await Deno.writeTextFile(cached, "half a segment");
      await finish(reproduce(out, profile));
      for (const path of [stale, cached]) {
        await Deno.stat(path).then(() => ok(false, `${path} left`), () => {});
      }
    });
  },
});

Deno.test({
  name: "a full disk is one line naming the file, leaves no temp file and the last complete run",
  sanitizeResources: false,
  async fn() {
    // A small tmpfs of its own, in a mount namespace of this test's (unshare
    // as root or as a mapped user), holds the output folder: one complete
    // run, then a filler leaving ~40 KB, then a run of another profile.
    const file = await tasksFile(join(root, "disk.jsonl"), 6);
    const first = await profileFile(root, "disk", file);
    const second = await profileFile(root, "disk2", file, { mutation_seed: 9 });
    const mount = join(root, "tmpfs");
    await Deno.mkdir(mount);
    const deno = [Deno.execPath(), "run", "-A", "--unstable-worker-options", "--cached-only", MAIN]
      .join(" ");
    const state = `(cd "$EXECRET_OUT" && find tables parquet stamps manifest.json run.json ` +
      `-type f | sort | xargs sha256sum)`;
    const script = [
      "set -u",
      `mount -t tmpfs -o size=3m tmpfs "${mount}"`,
      `export EXECRET_OUT="${mount}/out" EXECRET_CACHE="${root}/disk-cache"`,
      `${deno} reproduce --profile "${first}" --no-site >/dev/null 2>&1 || exit 10`,
      `${state} > "${root}/disk-before"`,
      `avail=$(df -k --output=avail "${mount}" | tail -1)`,
      `dd if=/dev/zero of="${mount}/filler" bs=1k count=$((avail - 40)) 2>/dev/null`,
      `${deno} reproduce --profile "${second}" --no-site > "${root}/disk-run" 2>&1`,
      `echo "exit $?" >> "${root}/disk-run"`,
      `${state} > "${root}/disk-after"`,
      `find "${mount}" -name '*.tmp' > "${root}/disk-tmp"`,
    ].join("\n");
    const { code } = await new Deno.Command("unshare", {
      args: ["--mount", "--map-root-user", "sh", "-c", script],
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    assertEquals(code, 0, "the namespace's script ran");
    const run = await Deno.readTextFile(join(root, "disk-run"));
    match(run, /exit 1\n$/);
    oneErrorLine(run.replace(/exit 1\n$/, ""), /out\/\S+: cannot write \(No space left on device/);
    assertEquals(
      await Deno.readTextFile(join(root, "disk-after")),
      await Deno.readTextFile(join(root, "disk-before")),
    );
    assertEquals(await Deno.readTextFile(join(root, "disk-tmp")), "");
  },
});
