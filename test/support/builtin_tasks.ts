/**
 * The built-in tasks (data/builtin_tasks.jsonl) as the tests write them into
 * `jsonl:` sources of their own.
 *
 * @module
 */

const BUILTIN = new URL("../../data/builtin_tasks.jsonl", import.meta.url);

/**
 * Built-in tasks some of whose executed mutants loop until the per-test
 * limit (the quick profile's run, 2026-12-07): a TIMEOUT costs its whole
 * limit in CPU time, 1,000 ms on the default profile, so tests that need a
 * few tasks and no TIMEOUT leave them out.
 */
export const LOOPING_BUILTIN: readonly string[] = [
  "builtin/bits_highest_set",
  "builtin/bits_is_power_of_two",
  "builtin/date_add_business_days",
  "builtin/search_rotation_min",
];

/** The built-in tasks' JSONL lines, in file order; without {@link LOOPING_BUILTIN} when `loops` is false. */
export async function builtinTaskLines(options: { loops?: boolean } = {}): Promise<string[]> {
  const lines = (await Deno.readTextFile(BUILTIN)).split("\n").filter((l) => l.trim() !== "");
  if (options.loops !== false) return lines;
  return lines.filter((l) => !LOOPING_BUILTIN.includes(JSON.parse(l).task_id));
}
