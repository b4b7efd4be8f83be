import { createPool } from "./pool.ts";
const rt = (Deno.args[0] ?? "pyodide") as "pyodide" | "native";
const t0 = performance.now();
const pool = await createPool({
  runtime: rt,
  workers: 1,
  timeoutMs: 300,
  memoryLimitBytes: 64 * 1024 * 1024,
});
console.log("start", (performance.now() - t0).toFixed(0));
const snippets = JSON.parse(Deno.readTextFileSync("test/fixtures/oracle/hostile.json")).snippets;
for (const s of snippets) {
  const f = (x: string) =>
    x.replaceAll("{{MARKER}}", "/tmp/nonexist/m").replaceAll("{{PORT}}", "9").replaceAll(
      "{{PROJECT_FILE}}",
      "/work/main/deno.json",
    );
  const t = performance.now();
  const r = await pool.run({ setup: "", code: f(s.code), tests: s.tests.map(f) });
  console.log(
    (performance.now() - t).toFixed(0).padStart(6),
    s.name,
    JSON.stringify(r.map((x) => x.outcome)),
    JSON.stringify(pool.stats().respawnMs.length),
    pool.stats().recycles,
  );
}
pool.close();
