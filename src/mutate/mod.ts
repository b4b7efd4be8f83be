/**
 * The mutation engine: mechanical single-edit buggy variants of a canonical.
 *
 * - {@link mutateCode} / {@link mutateCodeWith}: every syntactically valid
 *   single-edit candidate of one canonical, for the paper's six bug types
 *   (plus labelled extensions on request).
 * - {@link OPERATORS}: the registry of operators, one {@link OperatorEntry}
 *   per bug type (a new operator is one file in `operators/` and one line
 *   there); {@link operatorReference} prints it as data/MUTATION_OPERATORS.md.
 * - {@link selectionOrder}: the seeded, type-spreading order the oracle
 *   receives candidates in.
 * - {@link runMutateStage}: `tasks` → `mutants` (+ rejects); the same over a
 *   task list in memory with {@link mutateTasks} (one thread, sync) or
 *   {@link mutateTasksParallel} (workers, same output).
 * - {@link diffOneEdit} / {@link verifyMutant}: the integrity check that a
 *   candidate is one edit of its canonical.
 *
 * @module
 */
export {
  applyEdits,
  type Candidate,
  mutateCode,
  mutateCodeWith,
  type MutateOptions,
  type MutateResult,
  type RejectedEdit,
} from "./mutate_code.ts";
export { loadPythonParser, type PythonParser } from "../common/python_parser.ts";
export {
  EXAMPLE_SIGNATURE,
  exampleCode,
  type OperatorEntry,
  type OperatorExample,
  type ProposedEdit,
  type SiteContext,
} from "./operator_entry.ts";
export {
  deletingBugTypes,
  extensionBugTypes,
  OPERATORS,
  paperBugTypes,
} from "./operator_registry.ts";
export { operatorReference } from "./operator_reference.ts";
export { DEFAULT_SEED, seededKey, selectionOrder } from "./select.ts";
export {
  type MutantRow,
  type MutateStageOptions,
  type MutateStageResult,
  mutateTasks,
  mutateTasksParallel,
  runMutateStage,
  type SourceCoverage,
} from "./stage.ts";
export { diffOneEdit, type OneEdit } from "./diff_one_edit.ts";
export { type MutantRecord, verifyMutant } from "./verify_mutant.ts";
