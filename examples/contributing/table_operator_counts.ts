/**
 * A new table, worked through: `operator_counts`, how many candidates each
 * mutation operator made, written by the mutate stage beside `mutants`. In
 * the kit this file would be `src/tables/operator_counts.ts` (its import then
 * `../io/arrow_table.ts`), and one entry in `TABLE_CATALOG`
 * (src/tables/catalog.ts) makes it a table of the run everywhere:
 *
 *   entry("operator_counts", OPERATOR_COUNTS, "mutate"),
 *
 * The mutate stage's stamp then lists it among its outputs, `execret sql`
 * has it as a view, the site serves it as `data/operator_counts.arrow` and
 * the SQL console loads and lists it. The stage writes it with
 * `writeTable("operator_counts", operatorCounts(mutants), OPERATOR_COUNTS)`.
 */
import { type RowOf, tableSpec } from "../../src/io/arrow_table.ts";

/** Candidates per mutation operator: one row per (bug type, operator). */
export const OPERATOR_COUNTS = tableSpec({
  bug_type: "utf8",
  operator: "utf8",
  mutants: "int32",
});
/** One row of {@link OPERATOR_COUNTS}. */
export type OperatorCountRow = RowOf<typeof OPERATOR_COUNTS>;

/**
 * The table's rows from the mutants the stage keeps, by bug type and then
 * operator.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * const m = (bug_type: string, operator: string) => ({ bug_type, operator });
 * deepStrictEqual(operatorCounts([m("off_by_one", "lt_to_le"), m("off_by_one", "lt_to_le")]), [
 *   { bug_type: "off_by_one", operator: "lt_to_le", mutants: 2 },
 * ]);
 * ```
 */
export function operatorCounts(
  mutants: Iterable<{ bug_type: string; operator: string }>,
): OperatorCountRow[] {
  const counts = new Map<string, OperatorCountRow>();
  for (const { bug_type, operator } of mutants) {
    const key = `${bug_type}\0${operator}`;
    const row = counts.get(key) ?? { bug_type, operator, mutants: 0 };
    row.mutants++;
    counts.set(key, row);
  }
  return [...counts.values()].sort((a, b) =>
    a.bug_type.localeCompare(b.bug_type) || a.operator.localeCompare(b.operator)
  );
}
