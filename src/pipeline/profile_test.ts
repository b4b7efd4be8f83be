import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { loadProfile, profileNames, validateProfile } from "./profile.ts";
import { loadInvocations } from "../embed/invocations.ts";
import { ALL_RELEASED } from "../release/bundle_source.ts";

Deno.test("every shipped profile loads and validates", () => {
  const names = profileNames();
  for (const expected of ["default", "paper", "quick"]) {
    assertEquals(names.includes(expected), true);
  }
  for (const name of names) assertEquals(loadProfile(name).name, name);
});

Deno.test("a bad profile field is a one-line error naming the file and field", () => {
  const good = loadProfile("quick") as unknown as Record<string, unknown>;
  throws(
    () => validateProfile({ ...good, ks: [1, 0] }, "p.json"),
    { message: 'p.json: field "ks" must be a non-empty list of positive integers, got [1,0]' },
  );
  throws(
    () => validateProfile({ ...good, runtime: "docker" }, "p.json"),
    { message: 'p.json: field "runtime" must be "pyodide" or "native", got "docker"' },
  );
  throws(() => validateProfile({ ...good, sed: 1 }, "p.json"), {
    message: 'p.json: unknown field "sed"',
  });
  throws(() => loadProfile("nope"), /unknown profile "nope"/);
  throws(() => validateProfile({ ...good, mutation_extensions: "yes" }, "p.json"), {
    message: 'p.json: field "mutation_extensions" must be true or false, got "yes"',
  });
});

Deno.test("the paper-faithful operators unless a profile asks for the extensions", () => {
  const good = loadProfile("quick") as unknown as Record<string, unknown>;
  const { mutation_extensions: _, ...without } = good;
  assertEquals(validateProfile(without, "p.json").mutation_extensions, false);
  assertEquals(
    validateProfile({ ...good, mutation_extensions: true }, "p.json").mutation_extensions,
    true,
  );
  for (const name of ["default", "paper", "quick"]) {
    assertEquals(loadProfile(name).mutation_extensions, false, name);
  }
  assertEquals(loadProfile("extended").mutation_extensions, true);
});

Deno.test("every config a profile names is in the invocation table", async () => {
  const known = new Set((await loadInvocations()).map((i) => i.name));
  for (const name of profileNames()) {
    // release:* stands for the release's saved vectors, read from its bundle.
    const missing = loadProfile(name).configs.filter((c) => !known.has(c) && c !== ALL_RELEASED);
    assertEquals(missing, [], `profile ${name} names unknown configs`);
  }
});
