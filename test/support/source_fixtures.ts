import { fileURLToPath } from "node:url";

/** Test helper: the folder of the task-source fixtures, as a path ending in "/". */
export const FIXTURES = fileURLToPath(new URL("../fixtures/sources/", import.meta.url));

/** Test helper: a fixture's path relative to the repository root (what locators show). */
export function fixtureLabel(name: string): string {
  return `test/fixtures/sources/${name}`;
}

/** Test helper: a fixture's bytes. */
export function readFixture(name: string): Promise<Uint8Array> {
  return Deno.readFile(FIXTURES + name);
}
