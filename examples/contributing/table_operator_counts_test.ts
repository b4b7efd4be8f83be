import { deepStrictEqual as assertEquals } from "node:assert/strict";
import * as arrow from "apache-arrow";
import { checkedRowsOf, tableFromRows, toIpcStream } from "../../src/io/arrow_table.ts";
import { OPERATOR_COUNTS, operatorCounts } from "./table_operator_counts.ts";

// The table reaching the run's lists and the site is built by test/site/worked_example_test.ts.
Deno.test("operator_counts: one row per (bug type, operator), read back through its spec", () => {
  const m = (bug_type: string, operator: string) => ({ bug_type, operator });
  const rows = operatorCounts([
    m("wrong_operator", "add_to_sub"),
    m("off_by_one", "lt_to_le"),
    m("wrong_operator", "add_to_sub"),
    m("off_by_one", "plus_one"),
  ]);
  const table = arrow.tableFromIPC(toIpcStream(tableFromRows(rows, OPERATOR_COUNTS)));
  assertEquals(checkedRowsOf(table, OPERATOR_COUNTS, "operator_counts"), [
    { bug_type: "off_by_one", operator: "lt_to_le", mutants: 1 },
    { bug_type: "off_by_one", operator: "plus_one", mutants: 1 },
    { bug_type: "wrong_operator", operator: "add_to_sub", mutants: 2 },
  ]);
});
