import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { readRows } from "../io/arrow_table.ts";
import { makeFixtureRunInProcess } from "../../test/fixtures/run/fixture_process.ts";
import { main } from "../cli/main.ts";

const MAIN = new URL("../cli/main.ts", import.meta.url).pathname;

/** `execret` as a process: what the shell sees, exit code included. */
async function execretProcess(out: string, ...args: string[]) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--cached-only", MAIN, ...args],
    env: { EXECRET_OUT: out, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code, stdout: text(stdout), stderr: text(stderr) };
}

/**
 * `execret` through the CLI's own `main` in this process, its console output
 * caught: the same code path less a process start (about a second each).
 */
async function execret(out: string, ...args: string[]) {
  const saved = { out: Deno.env.get("EXECRET_OUT"), log: console.log, error: console.error };
  let stdout = "", stderr = "";
  console.log = (...a: unknown[]) => void (stdout += a.join(" ") + "\n");
  console.error = (...a: unknown[]) => void (stderr += a.join(" ") + "\n");
  Deno.env.set("EXECRET_OUT", out);
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    console.log = saved.log;
    console.error = saved.error;
    if (saved.out === undefined) Deno.env.delete("EXECRET_OUT");
    else Deno.env.set("EXECRET_OUT", saved.out);
  }
}

Deno.test("execret sql runs DuckDB over the run's tables", async (t) => {
  const out = await Deno.makeTempDir({ prefix: "execret-sql-" });
  try {
    await makeFixtureRunInProcess(out);
    const metrics = await readRows<Record<string, unknown>>(join(out, "tables", "metrics.arrow"));

    await t.step("every table is there by name", async () => {
      const r = await execret(out, "sql", "SHOW TABLES", "--format", "json");
      assertEquals(r.code, 0, r.stderr);
      const names = JSON.parse(r.stdout).map((d: { name: string }) => d.name).sort();
      for (const name of ["corpus", "metrics", "pairwise", "rankings", "rejects", "validation"]) {
        ok(names.includes(name), `${name} in ${names}`);
      }
    });

    await t.step("a table without a Parquet copy is read from its Arrow stream", async () => {
      await Deno.remove(join(out, "parquet", "rejects.parquet"));
      const r = await execret(out, "sql", "SELECT count(*) AS n FROM rejects", "--format", "json");
      assertEquals(r.code, 0, r.stderr);
      const rejects = await readRows(join(out, "tables", "rejects.arrow"));
      assertEquals(JSON.parse(r.stdout), [{ n: rejects.length }]);
    });

    await t.step("json rows equal the Arrow table's", async () => {
      const r = await execret(
        out,
        "sql",
        "SELECT config, k, value FROM metrics WHERE metric = 'exec' ORDER BY config, k",
        "--format",
        "json",
      );
      const expected = metrics.filter((m) => m.metric === "exec")
        .map((m) => ({ config: m.config, k: m.k, value: m.value }))
        .sort((a, b) =>
          String(a.config).localeCompare(String(b.config)) || Number(a.k) - Number(b.k)
        );
      assertEquals(JSON.parse(r.stdout), expected);
    });

    await t.step("table and csv output", async () => {
      const table = await execret(out, "sql", "SELECT count(*) AS n FROM metrics");
      const w = String(metrics.length).length;
      assertEquals(table.stdout.trimEnd().split("\n"), [
        "n".padStart(w),
        "-".repeat(w),
        String(metrics.length),
        "(1 row)",
      ]);
      const csv = await execret(out, "sql", "SELECT 'a,b' AS s, 1 AS one", "--format", "csv");
      assertEquals(csv.stdout, 's,one\n"a,b",1\n');
    });

    await t.step("bad SQL is one clear line and a non-zero exit", async () => {
      const r = await execretProcess(out, "sql", "SELECT nope FROM metrics");
      assertEquals(r.code, 1);
      assertEquals(r.stdout, "");
      const lines = r.stderr.trim().split("\n");
      assertEquals(lines.length, 1, r.stderr);
      ok(lines[0].startsWith("execret sql: Binder Error") && lines[0].includes("nope"), lines[0]);
    });

    await t.step(
      "read-only: no statement writes, reads or attaches a file, or loads an extension",
      async () => {
        const target = join(out, "parquet", "metrics.parquet");
        const before = await Deno.readFile(target);
        const outside = join(out, "elsewhere.parquet");
        for (
          const sql of [
            `COPY (SELECT 1 AS x) TO '${target}' (FORMAT parquet)`,
            `COPY metrics TO '${outside}' (FORMAT parquet)`,
            `SELECT * FROM read_csv('${join(out, "manifest.json")}')`,
            `ATTACH '${join(out, "db.duckdb")}' AS other`,
            "INSTALL httpfs",
            "LOAD httpfs",
            "SET enable_external_access = true",
            "SELECT * FROM 'https://example.com/data.csv'",
          ]
        ) {
          const r = await execret(out, "sql", sql);
          assertEquals(r.code, 1, `${sql} ran: ${r.stdout}`);
          const lines = r.stderr.trim().split("\n");
          assertEquals(lines.length, 1, r.stderr);
        }
        const refused = await execret(out, "sql", `COPY metrics TO '${outside}' (FORMAT parquet)`);
        ok(refused.stderr.includes("read-only") && refused.stderr.includes("--unrestricted"));
        assertEquals(await Deno.readFile(target), before, "metrics.parquet unchanged");
        await Deno.stat(outside).then(() => ok(false, `${outside} written`), () => {});
        await Deno.stat(join(out, "db.duckdb")).then(
          () => ok(false, "db.duckdb created"),
          () => {},
        );
        // Scratch tables in memory are fine: they go with the process.
        const scratch = await execret(out, "sql", "CREATE TABLE t AS SELECT 1 AS x");
        assertEquals(scratch.code, 0, scratch.stderr);
      },
    );

    await t.step("a second statement is refused, not run unseen", async () => {
      const r = await execret(out, "sql", "SELECT 1; SELECT 2");
      assertEquals(r.code, 2);
      ok(r.stderr.includes("got 2"), r.stderr);
    });

    await t.step("--unrestricted gives DuckDB's full access", async () => {
      const csv = join(out, "metrics.csv");
      const r = await execret(out, "sql", "--unrestricted", `COPY metrics TO '${csv}' (HEADER)`);
      assertEquals(r.code, 0, r.stderr);
      const lines = (await Deno.readTextFile(csv)).trim().split("\n");
      assertEquals(lines.length, metrics.length + 1);
      await Deno.remove(csv);
    });

    await t.step("bad flags and a missing run", async () => {
      assertEquals((await execret(out, "sql", "SELECT 1", "--format", "xml")).code, 2);
      assertEquals((await execret(out, "sql")).code, 2);
      const empty = await Deno.makeTempDir({ prefix: "execret-sql-empty-" });
      const r = await execret(empty, "sql", "SELECT 1");
      await Deno.remove(empty);
      assertEquals(r.code, 1);
      ok(r.stderr.includes("no tables"), r.stderr);
    });
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
