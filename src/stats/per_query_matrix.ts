import { readTable, TableNotFound } from "../io/arrow_table.ts";
import { metricNames } from "../score/metrics/metric_registry.ts";
// The score stage builds per_query in exactly these columns; read them the same way.
import type { PerQueryColumns } from "../score/per_query_columns.ts";

/**
 * The order metrics are reported in: the metric registry's; others (family
 * rows such as `outrank:<bug_type>`) follow alphabetically.
 */
export const METRIC_ORDER: readonly string[] = metricNames();

/** per_query reshaped for the statistics: one query-major value array per config. */
export interface PerQueryMatrix {
  configs: string[];
  queryIds: string[];
  source: string[];
  domain: string[];
  /** The (metric, k) series, in report order. */
  series: { metric: string; k: number }[];
  /** `values.get(config)[s * n + i]`: series s of query i (NaN when not defined). */
  values: Map<string, Float64Array>;
}

/**
 * Read `per_query.arrow` column-wise into {@link PerQueryMatrix} (queries
 * sorted by id), with the rows of each `extra` table in the same columns
 * (e.g. `rerank_per_query.arrow`, the reranked configs) when that file
 * exists. Every config
 * must cover the same queries (one-line error naming the file, config and
 * query otherwise); a (metric, k) a config lacks for a query is NaN.
 */
export async function readPerQueryMatrix(
  path: string,
  ks?: readonly number[],
  extra: readonly string[] = [],
): Promise<PerQueryMatrix> {
  const cols = await readPerQueryColumns(path);
  const where = [path];
  for (const x of extra) {
    let more: PerQueryColumns;
    try {
      more = await readPerQueryColumns(x);
    } catch (e) {
      if (e instanceof TableNotFound) continue;
      throw e;
    }
    for (const key of Object.keys(cols) as (keyof PerQueryColumns)[]) {
      const to = cols[key] as unknown[], from = more[key] as unknown[];
      for (let i = 0; i < from.length; i++) to.push(from[i]); // no spread: ~10^5 rows
    }
    where.push(x);
  }
  return perQueryMatrix(cols, where.join(" + "), ks);
}

/** The per_query columns of one table file. */
async function readPerQueryColumns(path: string): Promise<PerQueryColumns> {
  const table = await readTable(path);
  const col = <T>(name: string): T[] => {
    const c = table.getChild(name);
    if (!c) throw new Error(`${path}: no column "${name}"`);
    return Array.from(c as Iterable<T>);
  };
  return {
    config: col<string>("config"),
    query_id: col<string>("query_id"),
    source: col<string>("source"),
    domain: col<string>("domain"),
    metric: col<string>("metric"),
    k: col<number>("k"),
    value: col<number>("value"),
  };
}

/** Reshape per_query columns; see {@link readPerQueryMatrix}. */
export function perQueryMatrix(
  t: PerQueryColumns,
  where = "per_query",
  ks?: readonly number[],
): PerQueryMatrix {
  const rows = t.config.length;
  const keep = (k: number) => k === 0 || !ks || ks.includes(k);
  const queryIndex = new Map<string, number>();
  const queryIds: string[] = [], source: string[] = [], domain: string[] = [];
  const configSet = new Set<string>(),
    seriesKeys = new Map<string, { metric: string; k: number }>();
  for (let r = 0; r < rows; r++) {
    configSet.add(t.config[r]);
    if (!queryIndex.has(t.query_id[r])) {
      queryIndex.set(t.query_id[r], queryIds.length);
      queryIds.push(t.query_id[r]);
      source.push(t.source[r]);
      domain.push(t.domain[r]);
    }
    if (keep(t.k[r])) {
      seriesKeys.set(`${t.metric[r]}@${t.k[r]}`, { metric: t.metric[r], k: t.k[r] });
    }
  }
  // Queries in code-unit order of their ids, so the resamples (and so the
  // intervals) do not depend on the order of the rows.
  const order = queryIds.map((_, i) => i).sort((x, y) =>
    queryIds[x] < queryIds[y] ? -1 : queryIds[x] > queryIds[y] ? 1 : 0
  );
  const sortedIds = order.map((i) => queryIds[i]);
  const sortedSource = order.map((i) => source[i]), sortedDomain = order.map((i) => domain[i]);
  queryIds.splice(0, queryIds.length, ...sortedIds);
  source.splice(0, source.length, ...sortedSource);
  domain.splice(0, domain.length, ...sortedDomain);
  queryIds.forEach((id, i) => queryIndex.set(id, i));
  const rankOf = (m: string) => {
    const i = METRIC_ORDER.indexOf(m);
    return i < 0 ? METRIC_ORDER.length : i;
  };
  const series = [...seriesKeys.values()].sort((a, b) =>
    rankOf(a.metric) - rankOf(b.metric) ||
    (a.metric < b.metric ? -1 : a.metric > b.metric ? 1 : 0) ||
    a.k - b.k
  );
  const seriesIndex = new Map(series.map((s, i) => [`${s.metric}@${s.k}`, i]));
  const configs = [...configSet].sort();
  const n = queryIds.length, S = series.length;
  const values = new Map(configs.map((c) => [c, new Float64Array(S * n).fill(NaN)]));
  const seen = new Map(configs.map((c) => [c, new Uint8Array(n)]));
  for (let r = 0; r < rows; r++) {
    const q = queryIndex.get(t.query_id[r])!;
    seen.get(t.config[r])![q] = 1;
    if (!keep(t.k[r])) continue;
    const s = seriesIndex.get(`${t.metric[r]}@${t.k[r]}`)!;
    const v = values.get(t.config[r])!;
    if (!Number.isNaN(v[s * n + q])) {
      throw new Error(
        `${where}: ${t.config[r]} has two ${t.metric[r]}@${t.k[r]} values for ${t.query_id[r]}`,
      );
    }
    v[s * n + q] = t.value[r] ?? NaN;
  }
  for (const c of configs) {
    const missing = seen.get(c)!.indexOf(0);
    if (missing >= 0) {
      throw new Error(`${where}: config ${c} has no rows for query ${queryIds[missing]}`);
    }
  }
  return { configs, queryIds, source, domain, series, values };
}
