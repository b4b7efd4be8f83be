import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { DOMAINS } from "../tables/schema.ts";
import {
  DEFAULT_DOMAIN,
  DOMAIN_KEYWORDS,
  DOMAIN_PRIORITY,
  inferDomain,
  normalizeDomain,
  words,
} from "./domain.ts";

Deno.test("inferDomain assigns each domain from typical wording", () => {
  const cases: [string, string, string][] = [
    ["Write a python function to count set bits of a given number.", "", "bit_manipulation"],
    ["Return True if the year is a leap year.", "def is_leap(y): ...", "date_time"],
    ["Write a function to find the area of a triangle.", "", "geometry"],
    ["Simulate a turnstile state machine over a list of events.", "", "state_machines"],
    ["Check whether the given email address is valid.", "", "validation"],
    ["Write a function to sort the given array by using heap sort.", "", "sorting_searching"],
    ["Convert a run length encoding back to the original list.", "", "data_transformation"],
    ["Write a function to remove all whitespace from a string.", "", "string_processing"],
    ["Write a function to find the shared elements of two tuples.", "", "collections"],
    ["Write a function to find the nth prime.", "", "math_numerical"],
  ];
  for (const [query, code, domain] of cases) {
    assertEquals([query, inferDomain(query, code)], [query, domain]);
  }
});

Deno.test("phrases are matched before their words: binary search is not bit manipulation", () => {
  assertEquals(inferDomain("Implement binary search over a list.", ""), "sorting_searching");
  assertEquals(inferDomain("Return the binary representation of n.", ""), "bit_manipulation");
});

Deno.test("code words count, identifiers are split, and no match gives the default", () => {
  assertEquals(words("isLeapYear is_leap_year"), " is leap year is leap year ");
  assertEquals(inferDomain("Do the thing.", "def f(d):\n    return d.weekday()\n"), "date_time");
  assertEquals(inferDomain("Do the thing.", "def f():\n    pass\n"), DEFAULT_DOMAIN);
});

Deno.test("ties go to the earlier domain in the priority order; results are deterministic", () => {
  // "string" (string_processing) and "list" (collections) score alike.
  assertEquals(inferDomain("string list", ""), "string_processing");
  assertEquals(inferDomain("string list", ""), inferDomain("string list", ""));
});

Deno.test("the rule tables cover exactly the ten domains", () => {
  assertEquals(Object.keys(DOMAIN_KEYWORDS).sort(), [...DOMAINS].sort());
  assertEquals([...DOMAIN_PRIORITY].sort(), [...DOMAINS].sort());
});

Deno.test("normalizeDomain accepts display spellings and refuses unknown names", () => {
  assertEquals(normalizeDomain("Date/Time"), "date_time");
  assertEquals(normalizeDomain("string processing"), "string_processing");
  assertEquals(normalizeDomain("Math-Numerical"), "math_numerical");
  assertEquals(normalizeDomain("sorting & searching"), "sorting_searching");
  assertEquals(normalizeDomain("cooking"), null);
});
