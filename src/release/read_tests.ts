import { join } from "node:path";
import { fileExists } from "../io/file_exists.ts";
import { filesUnder, readJsonFile, type Report } from "./bundle_files.ts";
import type {
  ReleasedDifference,
  ReleasedInterval,
  ReleasedPair,
  ReleasedPairEntry,
  ReleasedRun,
} from "./bundle_types.ts";
import type { Findings } from "./findings.ts";
import { isObject } from "./released_rows.ts";

function isNumber(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v);
}

const byKey = <T extends { key: string }>(x: T, y: T) => x.key < y.key ? -1 : x.key > y.key ? 1 : 0;

/**
 * A list of rows, or an object keyed by model (the README does not give the
 * shape of the leaderboard or the invocation table). Models of `expected`
 * with no row are findings.
 */
export async function readRowList(
  file: string | null,
  expected: readonly string[],
  report: Report,
  findings: Findings,
): Promise<Record<string, unknown>[]> {
  if (file === null) return [];
  const v = await readJsonFile(file, report);
  if (v === undefined) return [];
  const rows = isObject(v) && Object.values(v).every(isObject)
    ? Object.entries(v).map(([model, row]) => ({ model, ...(row as object) }))
    : v;
  if (!Array.isArray(rows) || !rows.every(isObject)) {
    findings.note(
      file,
      "",
      "malformed_entry",
      "not a list of objects nor an object keyed by model",
    );
    return [];
  }
  const have = new Set(rows.map((row) => String(row.model)));
  for (const m of expected) {
    if (!have.has(m)) findings.note(file, "[].model", "missing_entry", m);
  }
  return rows as Record<string, unknown>[];
}

/**
 * `tests/pairwise_tests.json`: keys "A vs B" with A < B, each a map of
 * metric × k entries. Every entry needs its bootstrap interval; exec@k also
 * carries the rates, McNemar counts and exact p (tests/README.md).
 */
export async function readPairs(
  file: string | null,
  models: readonly string[],
  report: Report,
  findings: Findings,
): Promise<ReleasedPair[]> {
  if (file === null) return [];
  const v = await readJsonFile(file, report);
  if (v === undefined) return [];
  if (!isObject(v)) {
    findings.note(file, "", "malformed_entry", 'not an object keyed by "A vs B"');
    return [];
  }
  const known = new Set(models);
  const pairs: ReleasedPair[] = [];
  for (const [key, entry] of Object.entries(v)) {
    const m = /^(.+) vs (.+)$/.exec(key);
    if (!m || !isObject(entry)) {
      findings.note(file, `"${key}"`, "malformed_entry", key);
      continue;
    }
    const [, a, b] = m;
    if (!(a < b)) findings.note(file, '"A vs B"', "pair_unordered", key);
    const unknown = [a, b].filter((x) => !known.has(x));
    if (unknown.length) {
      findings.note(file, '"A vs B"', "unknown_model", `${key}: ${unknown.join(", ")}`);
      continue;
    }
    const metrics: Record<string, ReleasedPairEntry> = {};
    for (const [metric, e] of Object.entries(entry)) {
      const ci = isObject(e) ? e.bootstrap_ci_95 : undefined;
      if (!isObject(e) || !Array.isArray(ci) || ci.length !== 2 || !ci.every(isNumber)) {
        findings.note(file, `"A vs B".${metric}`, "malformed_entry", `${key}: no bootstrap_ci_95`);
        continue;
      }
      const out: ReleasedPairEntry = { bootstrap_ci_95: [ci[0], ci[1]] };
      for (const f of ["a_rate", "b_rate", "delta", "mcnemar_exact_p"] as const) {
        if (isNumber(e[f])) out[f] = e[f];
        else if (e[f] !== undefined) {
          findings.note(file, `"A vs B".${metric}.${f}`, "malformed_entry", key);
        }
      }
      for (const f of ["a_only", "b_only", "both", "neither"] as const) {
        if (Number.isInteger(e[f])) out[f] = e[f] as number;
        else if (e[f] !== undefined) {
          findings.note(file, `"A vs B".${metric}.${f}`, "malformed_entry", key);
        }
      }
      metrics[metric] = out;
    }
    pairs.push({ key, a, b, metrics });
  }
  const have = new Set(pairs.map((p) => p.key));
  const sorted = [...models].sort();
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      const key = `${sorted[i]} vs ${sorted[j]}`;
      if (!have.has(key)) findings.note(file, '"A vs B"', "missing_entry", key);
    }
  }
  return pairs.sort(byKey);
}

const INTERVAL_FIELDS = ["mean", "ci95_low", "ci95_high", "n", "bootstrap_samples", "seed"];

/** `tests/confidence_intervals.json`: model → metric → interval. */
export async function readIntervals(
  file: string | null,
  models: readonly string[],
  report: Report,
  findings: Findings,
): Promise<Map<string, Map<string, ReleasedInterval>>> {
  const out = new Map<string, Map<string, ReleasedInterval>>();
  if (file === null) return out;
  const v = await readJsonFile(file, report);
  if (v === undefined) return out;
  if (!isObject(v)) {
    findings.note(file, "", "malformed_entry", "not an object keyed by model");
    return out;
  }
  for (const model of Object.keys(v).sort()) {
    if (!models.includes(model)) {
      findings.note(file, '"<model>"', "unknown_model", model);
      continue;
    }
    const perModel = v[model];
    const metrics = new Map<string, ReleasedInterval>();
    for (const [metric, e] of Object.entries(isObject(perModel) ? perModel : {})) {
      if (!isObject(e) || !INTERVAL_FIELDS.every((f) => isNumber(e[f]))) {
        findings.note(file, `"<model>".${metric}`, "malformed_entry", `${model}: ${metric}`);
        continue;
      }
      metrics.set(metric, e as unknown as ReleasedInterval);
    }
    out.set(model, metrics);
  }
  for (const model of models) {
    if (!out.has(model)) findings.note(file, '"<model>"', "missing_entry", model);
  }
  return out;
}

/** `tests/paired_difference_intervals.json`: `"A minus B"` → metric → difference. */
export async function readDifferences(
  file: string | null,
  models: readonly string[],
  report: Report,
  findings: Findings,
): Promise<ReleasedDifference[]> {
  if (file === null) return [];
  const v = await readJsonFile(file, report);
  if (v === undefined) return [];
  const out: ReleasedDifference[] = [];
  for (const [key, entry] of Object.entries(isObject(v) ? v : {})) {
    const m = /^(.+) minus (.+)$/.exec(key);
    if (!m || !isObject(entry)) {
      findings.note(file, '"A minus B"', "malformed_entry", key);
      continue;
    }
    const [, a, b] = m;
    const unknown = [a, b].filter((x) => !models.includes(x));
    if (unknown.length) {
      findings.note(file, '"A minus B"', "unknown_model", `${key}: ${unknown.join(", ")}`);
      continue;
    }
    for (const [metric, e] of Object.entries(entry)) {
      if (
        !isObject(e) || !["mean_difference", "ci95_low", "ci95_high"].every((f) => isNumber(e[f]))
      ) {
        findings.note(file, `"A minus B".${metric}`, "malformed_entry", key);
        continue;
      }
      out.push({
        key,
        a,
        b,
        metric,
        mean_difference: e.mean_difference as number,
        ci95_low: e.ci95_low as number,
        ci95_high: e.ci95_high as number,
      });
    }
  }
  return out;
}

/**
 * Each dense system's saved matrices. The release names them
 * `embeddings/<model>.npz` without saying how a model id's `/` becomes a
 * file name, so a file matches a model when its stem equals the model's
 * results-file stem, else the model id itself (a subfolder per provider), else
 * the id with `/` written as `__`, `_`, `--` or `-`, else the part after the
 * `/`. A file that matches no model, or more than one, is a finding and not scored.
 */
export async function findEmbeddings(
  dir: string,
  runs: readonly ReleasedRun[],
  findings: Findings,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!(await fileExists(dir))) return out;
  const names = (run: ReleasedRun): string[] => {
    const id = run.model;
    const tail = id.includes("/") ? id.slice(id.lastIndexOf("/") + 1) : id;
    return [run.stem, id, ...["__", "_", "--", "-"].map((s) => id.replaceAll("/", s)), tail];
  };
  for (const rel of await filesUnder(dir, ".npz")) {
    const stem = rel.slice(0, -".npz".length);
    const exact = runs.filter((r) => r.stem === stem || r.model === stem);
    const loose = runs.filter((r) => names(r).some((n) => n.toLowerCase() === stem.toLowerCase()));
    const matches = exact.length ? exact : loose;
    const file = join(dir, rel);
    const model = matches.length === 1 ? matches[0].model : null;
    if (model === null || out.has(model)) {
      const why = model !== null
        ? `${model} already has ${out.get(model)!.slice(dir.length + 1)}`
        : matches.length === 0
        ? "matches no model of results/"
        : `matches ${matches.map((r) => r.model).join(", ")}`;
      findings.note(file, "", "npz_unmatched", why);
      continue;
    }
    out.set(model, file);
  }
  return out;
}
