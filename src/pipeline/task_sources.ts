import { type SourceRegistry, TASK_SOURCES } from "../sources/registry.ts";
import { RELEASE_SOURCE } from "../release/release_source.ts";

/**
 * Every task source a run can name: the sources layer's own (built-in,
 * MBPP, HumanEval, JSONL) and the paper's release, whose reader lives above
 * them (src/release/). Assembled here, above both, so that no folder imports
 * one above it; the pipeline and the CLI pass it to the tasks stage.
 */
export const ALL_TASK_SOURCES: SourceRegistry = { ...TASK_SOURCES, release: RELEASE_SOURCE };
