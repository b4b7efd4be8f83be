/**
 * The one list of mutation operators. The engine applies them in this order
 * (the paper's six first, in the order the paper reports them, then the
 * extensions), so the order is part of the output: an edit whose code equals
 * an earlier one's is dropped as a duplicate. Adding an operator is one file
 * in `operators/` exporting its {@link OperatorEntry}, and one line here.
 *
 * @module
 */
import type { OperatorEntry } from "./operator_entry.ts";
import { offByOneOperator } from "./operators/off_by_one.ts";
import { offByOneBoundaryOperator } from "./operators/off_by_one_boundary.ts";
import { swapArgumentsOperator } from "./operators/swap_arguments.ts";
import { removeEdgeCaseCheckOperator } from "./operators/remove_edge_case_check.ts";
import { wrongComparisonOperator } from "./operators/wrong_comparison.ts";
import { wrongOperatorOperator } from "./operators/wrong_operator.ts";
import { negateConditionOperator } from "./operators/negate_condition.ts";
import { wrongReturnValueOperator } from "./operators/wrong_return_value.ts";
import { wrongConstantOperator } from "./operators/wrong_constant.ts";
import { wrongCallOperator } from "./operators/wrong_call.ts";
import { dropCallOperator } from "./operators/drop_call.ts";
import { dropArgumentOperator } from "./operators/drop_argument.ts";
import { missingStatementOperator } from "./operators/missing_statement.ts";
import { wrongStringOperator } from "./operators/wrong_string.ts";
import { wrongVariableOperator } from "./operators/wrong_variable.ts";

/** Every operator, in the order the engine applies them. */
export const OPERATORS: readonly OperatorEntry[] = [
  offByOneOperator,
  offByOneBoundaryOperator,
  swapArgumentsOperator,
  removeEdgeCaseCheckOperator,
  wrongComparisonOperator,
  wrongOperatorOperator,
  negateConditionOperator,
  wrongReturnValueOperator,
  wrongConstantOperator,
  wrongCallOperator,
  dropCallOperator,
  dropArgumentOperator,
  missingStatementOperator,
  wrongStringOperator,
  wrongVariableOperator,
];

/** The paper's bug types, in registry order (equal to `BUG_TYPES` of the table schema). */
export function paperBugTypes(operators: readonly OperatorEntry[] = OPERATORS): string[] {
  return operators.filter((e) => !e.extension).map((e) => e.bug_type);
}

/** The extension bug types, in registry order. */
export function extensionBugTypes(operators: readonly OperatorEntry[] = OPERATORS): string[] {
  return operators.filter((e) => e.extension).map((e) => e.bug_type);
}

/** Bug types whose edit may delete one whole statement. */
export function deletingBugTypes(operators: readonly OperatorEntry[] = OPERATORS): Set<string> {
  return new Set(operators.filter((e) => e.deletes).map((e) => e.bug_type));
}
