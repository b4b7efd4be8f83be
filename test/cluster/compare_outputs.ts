/**
 * Two runs' outputs compared byte for byte: every file under `tables/`,
 * `parquet/` and `embeddings/` of two output folders (and `results/` when
 * there), except the fields REFERENCE.md documents as wall-clock
 * measurements, which are neutralised rather than skipped:
 *
 * - the tables of measurements (`measuredTables()` of src/tables/catalog.ts,
 *   as {@link MEASURED} says for each): `ms` and `cpu_ms` of
 *   `execution_times` and `oracle_ms` of `rerank_times` (their other
 *   columns, the rows and their order must still match), and the rows of
 *   `limit_margins` (which canonicals it lists is a measurement; its schema
 *   must still match); their Parquet copies must be the Parquet of their
 *   Arrow tables, byte for byte, so comparing the Arrow tables covers them;
 * - an embedding file's `created_at` metadata.
 *
 * A neutralised file is read, its wall-clock values set to zero (or to ""),
 * and written again with the kit's own writer (`toIpcStream`); each side's
 * unneutralised round trip must give back its bytes, so nothing but the
 * neutralised values can be lost on the way. A differing Arrow table names
 * its first differing row and column.
 *
 * @module
 */
import * as arrow from "apache-arrow";
import { join } from "node:path";
import { rowsOf, toIpcStream, toParquet } from "../../src/io/arrow_table.ts";

/** The folders of an output folder that are compared. */
export const COMPARED_DIRS = ["tables", "parquet", "embeddings", "results"] as const;

/**
 * How each table of measurements (`measuredTables()` of
 * src/tables/catalog.ts) is compared: its measured columns set to zero, the
 * other columns, the rows and their order still compared; or, where which
 * rows there are depends on the measurements, its schema only.
 */
export const MEASURED: Readonly<
  Record<string, { columns: readonly string[] } | { rows: "measured" }>
> = {
  execution_times: { columns: ["ms", "cpu_ms"] },
  // The canonicals whose slowest test used more than a tenth of the limit,
  // the nearest first: the rows themselves are measurements.
  limit_margins: { rows: "measured" },
  rerank_times: { columns: ["oracle_ms"] },
};

/** What neutralising a measured table means, for a verdict's note. */
function measuredNote(table: string): string {
  const m = MEASURED[table];
  return "columns" in m
    ? `the measured column${m.columns.length > 1 ? "s" : ""} ${m.columns.join(", ")}`
    : "its rows (which and how many are measurements)";
}

/** Schema metadata of an embedding file that holds a wall-clock time. */
export const WALL_CLOCK_METADATA = "created_at";

/** The verdict on one file. */
export interface FileVerdict {
  /** Path relative to the output folder, e.g. `tables/executions.arrow`. */
  file: string;
  same: boolean;
  /** How it was compared, or where it differs. */
  note: string;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

async function listFiles(out: string, dir: string): Promise<string[]> {
  const found: string[] = [];
  try {
    for await (const e of Deno.readDir(join(out, dir))) {
      if (e.isFile && !e.name.startsWith(".")) found.push(`${dir}/${e.name}`);
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return found;
}

/** A short, stable rendering of a cell for a message. */
function show(v: unknown): string {
  const text = JSON.stringify(
    v,
    (_k, x) =>
      typeof x === "bigint"
        ? x.toString()
        : ArrayBuffer.isView(x)
        ? Array.from(x as unknown as ArrayLike<number>)
        : x,
  ) ?? String(v);
  return text.length > 80 ? text.slice(0, 77) + "..." : text;
}

/** Where two Arrow tables first differ: schema, row count, or row and column. */
export function firstDifference(a: arrow.Table, b: arrow.Table): string {
  const fa = a.schema.fields.map((f) => `${f.name}:${f.type}`).join(", ");
  const fb = b.schema.fields.map((f) => `${f.name}:${f.type}`).join(", ");
  if (fa !== fb) return `columns differ: [${fa}] vs [${fb}]`;
  const ma = [...a.schema.metadata].sort(), mb = [...b.schema.metadata].sort();
  for (let i = 0; i < Math.max(ma.length, mb.length); i++) {
    if (show(ma[i]) !== show(mb[i])) {
      return `schema metadata differs: ${show(ma[i] ?? null)} vs ${show(mb[i] ?? null)}`;
    }
  }
  const ra = rowsOf<Record<string, unknown>>(a), rb = rowsOf<Record<string, unknown>>(b);
  const n = Math.min(ra.length, rb.length);
  for (let i = 0; i < n; i++) {
    for (const f of a.schema.fields) {
      if (show(ra[i][f.name]) !== show(rb[i][f.name])) {
        const key = Object.entries(ra[i]).find(([k, v]) =>
          typeof v === "string" && /(_id|_sha256|^id)$/.test(k)
        );
        const at = `row ${i}${key ? ` (${key[0]} ${show(key[1])})` : ""}, column ${f.name}: ` +
          `${show(ra[i][f.name])} vs ${show(rb[i][f.name])}`;
        const keyed = KEY_COLUMNS.has(f.name) ? byKey(a, ra, rb) : null;
        return keyed ? `${at}; by key, ${keyed}` : at;
      }
    }
  }
  if (ra.length !== rb.length) return `${ra.length} rows vs ${rb.length} rows`;
  return "same rows and schema, different bytes (batching or encoding)";
}

/** Columns that identify a row (with the others of a table that it has). */
const KEY_COLUMNS = new Set([
  "id",
  "role",
  "task_id",
  "query_id",
  "corpus_id",
  "snippet_id",
  "code_sha256",
  "tests_sha256",
  "runtime",
  "test_index",
  "gate",
  "source",
  "stage",
  "locator",
  "config",
]);

/**
 * When rows are out of step (one side has a row the other lacks), the first
 * row of `ra` whose key (its KEY_COLUMNS) is missing from `rb` or whose
 * other columns differ there; null when no key column.
 */
function byKey(
  t: arrow.Table,
  ra: Record<string, unknown>[],
  rb: Record<string, unknown>[],
): string | null {
  const keys = t.schema.fields.map((f) => f.name).filter((c) => KEY_COLUMNS.has(c));
  if (keys.length === 0) return null;
  const keyOf = (r: Record<string, unknown>) => keys.map((k) => show(r[k])).join(" ");
  const inB = new Map(rb.map((r) => [keyOf(r), r]));
  const inA = new Set(ra.map(keyOf));
  const label = (r: Record<string, unknown>) => keys.map((k) => `${k} ${show(r[k])}`).join(", ");
  // A row both runs have but with other values says most (a verdict that flipped).
  for (const r of ra) {
    const other = inB.get(keyOf(r));
    for (const f of other ? t.schema.fields : []) {
      if (show(r[f.name]) !== show(other![f.name])) {
        return `${label(r)}: ${f.name} ${show(r[f.name])} vs ${show(other![f.name])}`;
      }
    }
  }
  const onlyA = ra.find((r) => !inB.has(keyOf(r)));
  if (onlyA) return `only in the first run: ${label(onlyA)}`;
  const onlyB = rb.find((r) => !inA.has(keyOf(r)));
  return onlyB ? `only in the second run: ${label(onlyB)}` : null;
}

/** `table` with each of `names` set to zeros (kept in place, type kept). */
function zeroColumns(table: arrow.Table, names: readonly string[]): arrow.Table {
  const columns: Record<string, arrow.Vector> = {};
  for (const f of table.schema.fields) {
    columns[f.name] = names.includes(f.name)
      ? arrow.vectorFromArray(new Array(table.numRows).fill(0), f.type)
      : table.getChild(f.name)!;
  }
  const rebuilt = new arrow.Table(columns);
  return new arrow.Table(
    table.schema,
    rebuilt.batches.map((batch) => new arrow.RecordBatch(table.schema, batch.data)),
  );
}

/** `table` as its measured-table rule says (see {@link MEASURED}). */
function neutraliseMeasured(table: arrow.Table, name: string): arrow.Table {
  const m = MEASURED[name];
  if ("columns" in m) return zeroColumns(table, m.columns);
  return new arrow.Table(table.schema, [] as arrow.RecordBatch[]);
}

/** `table` with schema metadata `key` set to "". */
function blankMetadata(table: arrow.Table, key: string): arrow.Table {
  const metadata = new Map(table.schema.metadata);
  if (metadata.has(key)) metadata.set(key, "");
  const schema = new arrow.Schema(table.schema.fields, metadata);
  return new arrow.Table(schema, table.batches.map((b) => new arrow.RecordBatch(schema, b.data)));
}

/**
 * Compare Arrow streams `a` and `b` with `neutralise` applied to both; null
 * when equal, else where they differ. Throws when a side does not round-trip
 * through the kit's writer (then neutralising could hide a difference).
 */
function compareNeutralised(
  file: string,
  a: Uint8Array,
  b: Uint8Array,
  neutralise: (t: arrow.Table) => arrow.Table,
): string | null {
  const ta = arrow.tableFromIPC(a), tb = arrow.tableFromIPC(b);
  for (const [side, bytes, t] of [["first", a, ta], ["second", b, tb]] as const) {
    if (!equalBytes(toIpcStream(t), bytes)) {
      throw new Error(`${file} (${side} run): does not round-trip through toIpcStream`);
    }
  }
  const na = neutralise(ta), nb = neutralise(tb);
  if (equalBytes(toIpcStream(na), toIpcStream(nb))) return null;
  return firstDifference(na, nb);
}

/**
 * Compare the outputs of output folders `a` and `b` (see the module's doc):
 * one verdict per file present in either, sorted by path.
 */
export async function compareOutputs(a: string, b: string): Promise<FileVerdict[]> {
  const files = new Set<string>();
  for (const dir of COMPARED_DIRS) {
    for (const out of [a, b]) for (const f of await listFiles(out, dir)) files.add(f);
  }
  const verdicts: FileVerdict[] = [];
  for (const file of [...files].sort()) {
    const [ba, bb] = await Promise.all(
      [a, b].map((out) => Deno.readFile(join(out, file)).catch(() => null)),
    );
    if (!ba || !bb) {
      verdicts.push({ file, same: false, note: `only in the ${ba ? "first" : "second"} run` });
      continue;
    }
    const [dir, name] = file.split("/");
    const table = name.replace(/\.(arrow|parquet)$/, "");
    const measured = dir !== "embeddings" && table in MEASURED;
    const bytesSame = equalBytes(ba, bb);
    if (measured && dir === "tables") {
      const diff = bytesSame
        ? null
        : compareNeutralised(file, ba, bb, (t) => neutraliseMeasured(t, table));
      verdicts.push({
        file,
        same: diff === null,
        note: diff ??
          (bytesSame
            ? "same bytes"
            : `same but for ${measuredNote(table)} (documented measurement)`),
      });
    } else if (measured && dir === "parquet") {
      // A Parquet copy of a wall-clock table: it must be its Arrow table's Parquet.
      const problems: string[] = [];
      for (const [side, out, bytes] of [["first", a, ba], ["second", b, bb]] as const) {
        const ipc = await Deno.readFile(join(out, "tables", `${table}.arrow`)).catch(() => null);
        if (!ipc) problems.push(`the ${side} run has no tables/${table}.arrow`);
        else if (!equalBytes(toParquet(ipc), bytes)) {
          problems.push(`the ${side} run's copy is not the Parquet of its tables/${table}.arrow`);
        }
      }
      verdicts.push({
        file,
        same: problems.length === 0,
        note: problems.join("; ") ||
          (bytesSame
            ? "same bytes"
            : `the Parquet of tables/${table}.arrow in each run (compared there, ${
              measuredNote(table)
            } neutralised)`),
      });
    } else if (dir === "embeddings" && name.endsWith(".arrow")) {
      const diff = bytesSame
        ? null
        : compareNeutralised(file, ba, bb, (t) => blankMetadata(t, WALL_CLOCK_METADATA));
      verdicts.push({
        file,
        same: diff === null,
        note: diff ??
          (bytesSame
            ? "same bytes"
            : `same but for ${WALL_CLOCK_METADATA} (documented wall-clock metadata)`),
      });
    } else if (bytesSame) {
      verdicts.push({ file, same: true, note: "same bytes" });
    } else if (name.endsWith(".arrow")) {
      const diff = firstDifference(arrow.tableFromIPC(ba), arrow.tableFromIPC(bb));
      verdicts.push({ file, same: false, note: diff });
    } else {
      const at = ba.findIndex((x, i) => x !== bb[i]);
      verdicts.push({
        file,
        same: false,
        note: `${ba.length} vs ${bb.length} bytes, first difference at byte ${
          at < 0 ? Math.min(ba.length, bb.length) : at
        }`,
      });
    }
  }
  return verdicts;
}

/** One line per file: `same  tables/x.arrow  (note)` or `DIFFERS ...`. */
export function formatVerdicts(verdicts: readonly FileVerdict[]): string {
  const width = Math.max(0, ...verdicts.map((v) => v.file.length));
  return verdicts.map((v) =>
    `${v.same ? "same   " : "DIFFERS"}  ${v.file.padEnd(width)}  ${v.note}`
  )
    .join("\n");
}
