/**
 * The "Your models" page's data as JSON on stdout (src/site/report/your_models.ts):
 * the manifest's user configs and the run's model_ranks, pairwise and metrics.
 *
 *   deno run -A src/site/your_models_data.ts > your_models.json
 */
import * as arrow from "apache-arrow";
import { checkedRowsOf, type TableSpec } from "../io/arrow_table.ts";
import { tablePath } from "../io/paths.ts";
import { METRICS, MODEL_RANKS, PAIRWISE } from "../tables/schema.ts";
import { type YourModels, yourModels } from "./report/your_models.ts";
import { runInfo } from "./run_info.ts";
import { tableBytes } from "./table_bytes.ts";

/** The page's data for the run in EXECRET_OUT (or out/). */
export async function yourModelsData(): Promise<YourModels> {
  const rows = async <S extends TableSpec>(name: string, spec: S) =>
    checkedRowsOf(arrow.tableFromIPC(await tableBytes(name, spec)), spec, tablePath(name));
  const { manifest } = await runInfo();
  const user = (manifest?.user_configs ?? {}) as Record<string, string>;
  return yourModels(
    user,
    await rows("model_ranks", MODEL_RANKS),
    await rows("pairwise", PAIRWISE),
    await rows("metrics", METRICS),
  );
}
