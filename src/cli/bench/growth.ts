import { join, resolve } from "node:path";
import { parseFlags, positiveInt, printJson } from "../command.ts";
import { UserError } from "../../io/user_error.ts";
import { atomicWrite } from "../../io/atomic_write.ts";
import { readTable } from "../../io/arrow_table.ts";
import { outDir } from "../../io/paths.ts";
import { loadProfile } from "../../pipeline/profile.ts";
import { STAGES } from "../../pipeline/stages.ts";
import { buildTasks } from "../../tasks/tasks_stage.ts";
import { growthTasks, taskJsonl } from "./growth_tasks.ts";
import { peakTreeRss } from "./growth_rss.ts";
import { seedSnapshot } from "../../oracle/pool.ts";

/**
 * The stages measured: the pipeline's, in order, up to stats (`compare` does
 * nothing outside release profiles, `results` only writes files).
 */
export const GROWTH_STAGES: readonly string[] = STAGES.map((s) => s.name)
  .slice(0, STAGES.findIndex((s) => s.name === "stats") + 1);

/** Stages allowed to grow faster than n log n in snippets: scoring is n_queries × n_docs. */
const QUADRATIC_OK = new Set(["score"]);

/**
 * Time noise allowance on a growth exponent before a stage is flagged: a
 * shared 2-core machine swings timings by several percent between runs.
 */
const EXPONENT_SLACK = 0.15;

/** One stage measured at one scale. */
export interface StageMeasure {
  stage: string;
  /** The stage's own time, from inside its process (no Deno start-up or module load). */
  seconds: number;
  /** The stage's process from spawn to exit. */
  wall_seconds: number;
  /** Peak summed RSS of the stage's process tree, in MB (10^6 bytes). */
  peak_mb: number;
}

/** Everything measured at one scale. */
export interface ScaleMeasure {
  scale: number;
  tasks: number;
  snippets: number;
  queries: number;
  /** /proc/loadavg's 1-minute average when the scale started and ended. */
  load: [number, number];
  stages: StageMeasure[];
}

/** Growth of one stage between two consecutive scales. */
export interface Exponent {
  stage: string;
  from: number;
  to: number;
  /** log(t_to / t_from) / log(n_to / n_from), n = snippets. */
  time: number;
  /** The same exponent for n log n between those sizes: the bound a stage must stay under. */
  nlogn: number;
  /** Grows faster than n log n (plus slack) and is not allowed to. */
  flagged: boolean;
}

/** The bench's result. */
export interface GrowthResult {
  base_tasks: number;
  sources: string[];
  configs: string[];
  rerankers: string[];
  scales: ScaleMeasure[];
  exponents: Exponent[];
}

/** Options of {@link runGrowth}. */
export interface GrowthOptions {
  scales: number[];
  /** Folder for the generated task files and each scale's pipeline output. */
  out: string;
  /** Task sources the base tasks come from (default: the default profile's). */
  sources?: string[];
  /** Keep only the first N base tasks (for quick runs and tests). */
  base?: number;
  /** Progress lines on stderr. */
  log?: (line: string) => void;
  /** Called with the result so far after each scale (a long run keeps what it measured). */
  onScale?: (partial: GrowthResult) => Promise<void>;
}

/**
 * The profile every scale runs: the default profile's settings with the
 * offline sparse retrievers and their execution reranks. USE is left out
 * (its dense cost is linear in texts and `bench embed` measures it); the
 * kit ships no cheap deterministic dense embedding to stand in for it.
 */
function growthProfile(tasksFile: string): Record<string, unknown> {
  const base = loadProfile("default");
  return {
    ...base,
    name: "growth",
    description: "Generated tasks at a multiple of the default profile (execret bench growth)",
    sources: [`jsonl:${tasksFile}`],
    configs: ["bm25", "tfidf"],
    rerankers: ["bm25+exec", "tfidf+exec", "rrf:bm25+tfidf"],
    site: false,
  };
}

/**
 * Run the pipeline on generated tasks at each scale, every stage in its own
 * process, and measure each stage's time and peak memory (its process tree's
 * summed RSS, sampled every 100 ms). Each scale starts from an empty folder
 * and an empty execution cache, so every stage really computes (only the
 * Pyodide snapshot, which holds no result, is copied in).
 *
 * `execret bench growth --scales 1,3,10` calls it and prints {@link
 * growthTable} of the result.
 */
export async function runGrowth(options: GrowthOptions): Promise<GrowthResult> {
  const log = options.log ?? (() => {});
  const sources = options.sources ?? loadProfile("default").sources;
  const built = await buildTasks({ sources, quiet: true });
  const base = built.rows.slice(0, options.base ?? built.rows.length);
  if (base.length === 0) throw new UserError(`sources ${sources.join(", ")} gave no task`);
  log(`growth: ${base.length} base tasks from ${sources.join(", ")}`);
  const scales: ScaleMeasure[] = [];
  let profile: Record<string, unknown> = {};
  const result = (): GrowthResult => ({
    base_tasks: base.length,
    sources,
    configs: profile.configs as string[],
    rerankers: profile.rerankers as string[],
    scales: [...scales],
    exponents: growthExponents(scales),
  });
  for (const scale of options.scales) {
    const dir = resolve(options.out, `s${scale}`);
    await Deno.remove(dir, { recursive: true }).catch((e) => {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    });
    await Deno.mkdir(dir, { recursive: true });
    const tasksFile = join(dir, "growth_tasks.jsonl");
    await atomicWrite(tasksFile, taskJsonl(await growthTasks(base, scale)));
    profile = growthProfile(tasksFile);
    // The Pyodide snapshot holds no result: made once, in the kit's own
    // cache, rather than inside the oracle stage's time at every scale.
    if (profile.runtime === "pyodide") await seedSnapshot(join(dir, "cache"));
    const profileFile = join(dir, "profile.json");
    await atomicWrite(profileFile, JSON.stringify(profile, null, 2) + "\n");
    const loadStart = loadAverage();
    const stages: StageMeasure[] = [];
    for (const stage of GROWTH_STAGES) {
      const m = await measureStage(profileFile, stage, dir);
      log(
        `growth: ×${scale} ${stage.padEnd(6)} ${m.seconds.toFixed(1)} s, ` +
          `peak ${m.peak_mb.toFixed(0)} MB`,
      );
      stages.push(m);
    }
    const rows = async (name: string) =>
      (await readTable(join(dir, "tables", `${name}.arrow`))).numRows;
    scales.push({
      scale,
      tasks: await rows("tasks"),
      snippets: await rows("corpus"),
      queries: await rows("queries"),
      load: [loadStart, loadAverage()],
      stages,
    });
    await options.onScale?.(result());
  }
  return result();
}

/**
 * Run one stage in its own process under `dir` (its upstream stages already
 * current there) and measure it.
 */
export async function measureStage(
  profileFile: string,
  stage: string,
  dir: string,
): Promise<StageMeasure> {
  const script = new URL("./growth_stage.ts", import.meta.url).pathname;
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      "--unstable-worker-options",
      "--cached-only",
      script,
      profileFile,
      stage,
    ],
    // Each scale has its own output tree and execution cache: nothing is reused.
    env: { EXECRET_OUT: dir, EXECRET_CACHE: join(dir, "cache") },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = child.output();
  const peak = await peakTreeRss(child.pid, output);
  const { code, stdout, stderr } = await output;
  const wall = (performance.now() - started) / 1000;
  if (code !== 0) {
    const tail = new TextDecoder().decode(stderr).trim().split("\n").slice(-3).join(" | ");
    throw new UserError(`growth: stage ${stage} in ${dir} exited ${code}: ${tail}`);
  }
  const report = JSON.parse(new TextDecoder().decode(stdout).trim().split("\n").pop()!);
  if (report.cached || report.upstream_ran.length > 0) {
    throw new UserError(
      `growth: stage ${stage} in ${dir} did not run alone (cached ${report.cached}, ` +
        `upstream ran: ${report.upstream_ran.join(", ") || "none"})`,
    );
  }
  return {
    stage,
    seconds: report.seconds as number,
    wall_seconds: Math.round(wall * 100) / 100,
    peak_mb: Math.round(peak / 1e5) / 10,
  };
}

function loadAverage(): number {
  return Number(Deno.readTextFileSync("/proc/loadavg").split(" ")[0]);
}

/**
 * Each stage's growth exponent in snippets between consecutive scales,
 * against n log n's: a stage other than score whose exponent exceeds n log
 * n's by more than {@link EXPONENT_SLACK} is flagged.
 */
export function growthExponents(scales: readonly ScaleMeasure[]): Exponent[] {
  const out: Exponent[] = [];
  for (let i = 1; i < scales.length; i++) {
    const a = scales[i - 1], b = scales[i];
    const ratio = Math.log(b.snippets / a.snippets);
    if (!(ratio > 0)) continue;
    const nlogn =
      Math.log((b.snippets * Math.log(b.snippets)) / (a.snippets * Math.log(a.snippets))) /
      ratio;
    for (const sa of a.stages) {
      const sb = b.stages.find((s) => s.stage === sa.stage);
      if (!sb) continue;
      // A stage timed at 0.00 s has no measurable growth; floor at 10 ms.
      const time = Math.log(Math.max(sb.seconds, 0.01) / Math.max(sa.seconds, 0.01)) / ratio;
      out.push({
        stage: sa.stage,
        from: a.scale,
        to: b.scale,
        time: Math.round(time * 100) / 100,
        nlogn: Math.round(nlogn * 100) / 100,
        flagged: !QUADRATIC_OK.has(sa.stage) && time > nlogn + EXPONENT_SLACK,
      });
    }
  }
  return out;
}

/** The result as a Markdown table: stage × scale (time s, peak MB), then exponents. */
export function growthTable(result: GrowthResult): string {
  const scales = result.scales;
  const head = [
    "stage",
    ...scales.map((s) => `×${s.scale} time s`),
    ...scales.map((s) => `×${s.scale} peak MB`),
  ];
  const pairs = scales.slice(1).map((b, i) => [scales[i].scale, b.scale] as const);
  head.push(...pairs.map(([a, b]) => `exponent ×${a}→×${b}`));
  const lines = [row(head), row(head.map((_, i) => i === 0 ? "---" : "---:"))];
  const counts = (label: string, pick: (s: ScaleMeasure) => number) =>
    row([
      label,
      ...scales.map((s) => String(pick(s))),
      ...scales.map(() => ""),
      ...pairs.map(() => ""),
    ]);
  lines.push(counts("tasks (count)", (s) => s.tasks));
  lines.push(counts("snippets (count)", (s) => s.snippets));
  lines.push(counts("queries (count)", (s) => s.queries));
  for (const stage of GROWTH_STAGES) {
    const cells = [stage];
    for (const s of scales) cells.push(fmt(s.stages.find((m) => m.stage === stage)?.seconds));
    for (const s of scales) {
      const mb = s.stages.find((m) => m.stage === stage)?.peak_mb;
      cells.push(mb === undefined ? "" : mb.toFixed(0));
    }
    for (const [a, b] of pairs) {
      const e = result.exponents.find((x) => x.stage === stage && x.from === a && x.to === b);
      cells.push(
        e === undefined ? "" : `${e.time.toFixed(2)}${e.flagged ? " ⚠ > n log n" : ""}`,
      );
    }
    lines.push(row(cells));
  }
  const nlogn = pairs.map(([a, b]) =>
    result.exponents.find((x) => x.from === a && x.to === b)?.nlogn
  );
  lines.push(row([
    "n log n bound",
    ...scales.map(() => ""),
    ...scales.map(() => ""),
    ...nlogn.map((x) => x === undefined ? "" : x.toFixed(2)),
  ]));
  return lines.join("\n") + "\n";
}

function row(cells: string[]): string {
  return `| ${cells.join(" | ")} |`;
}

function fmt(x: number | undefined): string {
  return x === undefined ? "" : x.toFixed(1);
}

/**
 * Several runs' growth.json files as one result (scales sorted, exponents
 * recomputed), e.g. a 1×/3× run and a 10× run made apart.
 */
export function mergeResults(files: readonly string[]): GrowthResult {
  const results = files.map((file) => {
    try {
      return JSON.parse(Deno.readTextFileSync(file)) as GrowthResult;
    } catch (e) {
      throw new UserError(`${file}: cannot read a growth result (${(e as Error).message})`);
    }
  });
  const scales = results.flatMap((r) => r.scales).sort((a, b) => a.scale - b.scale);
  return { ...results[0], scales, exponents: growthExponents(scales) };
}

/** Parse `--scales 1,3,10` into positive numbers, in the order given. */
export function parseScales(value: string): number[] {
  const scales = value.split(",").map((s) => Number(s.trim()));
  if (scales.length === 0 || scales.some((s) => !Number.isFinite(s) || s <= 0)) {
    throw new UserError(`--scales must be positive numbers separated by commas, got "${value}"`, 2);
  }
  return scales;
}

/** `execret bench growth`: every stage's time and peak memory at several multiples of the default benchmark. */
export async function benchGrowth(args: string[]): Promise<number> {
  const { values } = parseFlags(args, {
    scales: { type: "string" },
    out: { type: "string" },
    source: { type: "string", multiple: true },
    base: { type: "string" },
    from: { type: "string", multiple: true },
  });
  if (values.from?.length) {
    const merged = mergeResults(values.from);
    if (values.json) printJson(merged);
    else console.log(growthTable(merged));
    return 0;
  }
  const out = values.out ?? join(outDir(), "growth");
  const save = async (result: GrowthResult) => {
    await atomicWrite(join(out, "growth.json"), JSON.stringify(result, null, 2) + "\n");
    await atomicWrite(join(out, "growth.md"), growthTable(result));
  };
  const result = await runGrowth({
    onScale: save,
    scales: parseScales(values.scales ?? "1,3,10"),
    out,
    sources: values.source?.length ? values.source : undefined,
    base: values.base === undefined ? undefined : positiveInt("base", values.base, 1),
    log: values.json ? undefined : (line) => console.error(line),
  });
  const table = growthTable(result);
  if (values.json) printJson(result);
  else {
    console.log(table);
    const loads = result.scales.map((s) => `×${s.scale} ${s.load[0]}→${s.load[1]}`).join(", ");
    console.log(`load average (1 min) at start→end: ${loads}`);
    console.log(`written: ${join(out, "growth.md")}, ${join(out, "growth.json")}`);
  }
  return 0;
}
