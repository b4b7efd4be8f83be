/**
 * Real texts for the tests of the USE fast path: MBPP's solutions and task
 * texts, obtained as the kit obtains MBPP (test/support/real_task_sets.ts:
 * EXECRET_MIRROR, else the source cache `make reproduce` fills, else the
 * official download). Without any of them the tests fail with one line
 * naming EXECRET_MIRROR rather than pass on nothing.
 */
import { realTaskSet } from "./real_task_sets.ts";

/** MBPP's solutions and task texts, in id order, as the file has them (CRLF, tabs and all). */
export async function mbppTexts(): Promise<string[]> {
  const file = await realTaskSet("mbpp");
  return file.records.flatMap(({ value }) => [value.code as string, value.text as string]);
}
