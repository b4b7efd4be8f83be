import { readTableRows } from "../io/arrow_table.ts";
import { tablePath } from "../io/paths.ts";
import { METRICS } from "../tables/schema.ts";

/** The paper's headline numbers for one config. */
export interface HeadlineRow {
  config: string;
  exec1: number | null;
  exec10: number | null;
  /** Share of rank-1 misses that are the query's own distractors. */
  ownMissShare: number | null;
  /** Share of queries whose canonical scores below one of its distractors. */
  belowShare: number | null;
}

/**
 * Headline numbers per config from the `metrics` table, best exec@1 first:
 * the figures the paper leads with (exec@1 vs exec@10, rank-1 miss
 * attribution, canonical-below-distractor share).
 */
export async function headline(): Promise<HeadlineRow[]> {
  const rows = await readTableRows(tablePath("metrics"), METRICS);
  const get = (config: string, metric: string, k: number) =>
    rows.find((r) => r.config === config && r.metric === metric && r.k === k)?.value ?? null;
  const configs = [...new Set(rows.map((r) => r.config))];
  return configs
    .map((config) => ({
      config,
      exec1: get(config, "exec", 1),
      exec10: get(config, "exec", 10),
      ownMissShare: get(config, "miss_own_distractor", 1),
      belowShare: get(config, "below_distractor", 0),
    }))
    .sort((a, b) => (b.exec1 ?? -1) - (a.exec1 ?? -1) || (a.config < b.config ? -1 : 1));
}
