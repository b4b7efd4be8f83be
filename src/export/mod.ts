/** Exports for other tools: TREC runs and qrels (trec_eval, ranx) and the BEIR layout. */
export { type ExportOptions, runExport } from "./stage.ts";
export { trecQrels, trecRun } from "./trec.ts";
export { beirFiles } from "./beir.ts";
