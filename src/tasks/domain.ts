import { DOMAINS } from "../tables/schema.ts";

/** One of the paper's ten domains. */
export type Domain = typeof DOMAINS[number];

/**
 * Keyword rules for tasks whose source gives no domain. Documented in
 * data/TASKS_SCHEMA.md; change both together.
 *
 * A keyword is a lowercase word or phrase matched on word boundaries; a
 * trailing `*` matches any word that starts with it (`sort*`: sort, sorted,
 * sorting). Identifiers are split into words first (`is_leap_year`,
 * `isLeapYear` → "is leap year").
 */
export const DOMAIN_KEYWORDS: Readonly<Record<Domain, readonly string[]>> = {
  date_time: [
    "date*",
    "datetime",
    "day",
    "days",
    "weekday*",
    "week*",
    "month*",
    "year*",
    "leap",
    "hour*",
    "minute*",
    "clock",
    "calendar",
    "timestamp*",
    "time zone",
    "timezone",
    "epoch",
    "duration",
    "am pm",
  ],
  bit_manipulation: [
    "bit",
    "bits",
    "bitwise",
    "xor",
    "binary",
    "bin",
    "set bits",
    "unset bits",
    "toggle",
    "lsb",
    "msb",
    "gray code",
    "hamming",
    "shift*",
    "mask*",
    "nibble*",
    "parity",
  ],
  geometry: [
    "area",
    "perimeter",
    "volume",
    "circle*",
    "circumference",
    "triangle*",
    "rectangle*",
    "polygon*",
    "radius",
    "radian*",
    "diameter",
    "angle*",
    "distance",
    "point*",
    "coordinate*",
    "slope",
    "sphere",
    "cylinder",
    "cone",
    "cuboid",
    "prism",
    "pyramid",
    "parallelogram",
    "trapezium",
    "trapezoid",
    "rhombus",
    "hexagon*",
    "pentagon*",
    "octagon*",
    "arc",
    "sector",
    "hypotenuse",
    "euclidean",
    "manhattan",
    "surface",
  ],
  state_machines: [
    "state",
    "states",
    "transition*",
    "automat*",
    "fsm",
    "state machine",
    "machine",
    "event*",
    "turnstile",
    "vending",
    "traffic light",
    "elevator",
    "simulat*",
  ],
  validation: [
    "valid*",
    "invalid",
    "verify",
    "password*",
    "email*",
    "url*",
    "ip address",
    "ipv4",
    "ipv6",
    "phone",
    "isbn",
    "luhn",
    "credit card",
    "checksum",
    "well formed",
    "balanced",
    "legal",
  ],
  sorting_searching: [
    "sort*",
    "search*",
    "binary search",
    "bisect*",
    "heap*",
    "kth",
    "k smallest",
    "k largest",
    "nth smallest",
    "nth largest",
    "smallest",
    "largest",
    "index of",
    "first occurrence",
    "last occurrence",
    "position of",
    "insertion point",
    "lookup",
    "rank*",
    "order*",
  ],
  data_transformation: [
    "convert*",
    "conversion",
    "transform*",
    "flatten*",
    "format*",
    "encode*",
    "decode*",
    "encoding",
    "serialize*",
    "parse",
    "run length",
    "csv",
    "json",
    "map",
    "zip",
    "to tuple",
    "to list",
    "to string",
    "to dictionary",
  ],
  string_processing: [
    "string*",
    "str",
    "char*",
    "word*",
    "letter*",
    "vowel*",
    "consonant*",
    "substring*",
    "uppercase",
    "lowercase",
    "upper",
    "lower",
    "case",
    "palindrom*",
    "regex",
    "re",
    "text",
    "sentence*",
    "space*",
    "whitespace",
    "camel",
    "snake",
    "prefix",
    "suffix",
    "anagram*",
  ],
  collections: [
    "list*",
    "tuple*",
    "dict*",
    "set",
    "sets",
    "array*",
    "element*",
    "item*",
    "matrix",
    "matrices",
    "stack",
    "queue",
    "deque",
    "counter",
    "frequenc*",
    "duplicate*",
    "unique",
    "pair*",
    "sublist*",
    "nested",
    "group*",
    "binary tree",
    "tree",
    "linked list",
    "keys",
    "values",
  ],
  math_numerical: [
    "number*",
    "sum",
    "product",
    "prime*",
    "factorial*",
    "fibonacci",
    "digit*",
    "divisor*",
    "divisible",
    "gcd",
    "lcm",
    "power*",
    "square*",
    "cube*",
    "root",
    "even",
    "odd",
    "integer*",
    "average",
    "mean",
    "median",
    "series",
    "sequence",
    "multiply",
    "fraction*",
    "decimal",
    "float*",
    "ratio",
    "percent*",
    "perfect",
    "harmonic",
    "binomial",
    "polynomial",
    "equation",
    "quadratic",
    "math",
  ],
};

/** Tie-break order: on equal scores the domain listed first wins (most specific first). */
export const DOMAIN_PRIORITY: readonly Domain[] = [
  "date_time",
  "bit_manipulation",
  "geometry",
  "state_machines",
  "validation",
  "sorting_searching",
  "data_transformation",
  "string_processing",
  "collections",
  "math_numerical",
];

/** Domain given to a task no keyword matches. */
export const DEFAULT_DOMAIN: Domain = "math_numerical";

/** Weight of a keyword found in the query; one found in the code counts 1. */
export const QUERY_WEIGHT = 2;

interface Rule {
  domain: Domain;
  pattern: RegExp;
  words: number;
  length: number;
}

// Longer phrases first, so "binary search" is consumed before "binary" is tried.
const RULES: Rule[] = Object.entries(DOMAIN_KEYWORDS)
  .flatMap(([domain, keywords]) =>
    keywords.map((keyword) => {
      const prefix = keyword.endsWith("*");
      const body = (prefix ? keyword.slice(0, -1) : keyword).split(" ").map(escape).join(" +");
      return {
        domain: domain as Domain,
        pattern: new RegExp(`\\b${body}${prefix ? "[a-z0-9]*" : ""}\\b`, "g"),
        words: keyword.split(" ").length,
        length: keyword.length,
      };
    })
  )
  .sort((a, b) =>
    b.words - a.words || b.length - a.length ||
    DOMAIN_PRIORITY.indexOf(a.domain) - DOMAIN_PRIORITY.indexOf(b.domain)
  );

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Lowercase words of a text: identifiers split at underscores and camelCase
 * humps, everything that is not a letter or digit turned into a space.
 */
export function words(text: string): string {
  return " " + text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ") +
    " ";
}

/** Per-domain keyword score of a text (each distinct keyword counts once). */
function scoreText(text: string, weight: number, scores: Map<Domain, number>): void {
  let rest = words(text);
  for (const rule of RULES) {
    let hit = false;
    rest = rest.replace(rule.pattern, (m) => {
      hit = true;
      return " ".repeat(m.length);
    });
    if (hit) scores.set(rule.domain, (scores.get(rule.domain) ?? 0) + weight);
  }
}

/**
 * Assign a domain by keyword rules over the query and the code: each domain
 * scores 2 per distinct keyword in the query plus 1 per distinct keyword in
 * the code; the highest score wins, ties go to the domain earlier in
 * {@link DOMAIN_PRIORITY}, and no match at all gives {@link DEFAULT_DOMAIN}.
 * Deterministic: same text, same domain.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(
 *   inferDomain("Return True if the year is a leap year.", "def is_leap(y): ..."),
 *   "date_time",
 * );
 * ```
 */
export function inferDomain(query: string, code: string): Domain {
  const scores = new Map<Domain, number>();
  scoreText(query, QUERY_WEIGHT, scores);
  scoreText(code, 1, scores);
  let best: Domain = DEFAULT_DOMAIN;
  let bestScore = 0;
  for (const domain of DOMAIN_PRIORITY) {
    const s = scores.get(domain) ?? 0;
    if (s > bestScore) {
      best = domain;
      bestScore = s;
    }
  }
  return best;
}

/** True when `value` is one of the ten domain names, spelled exactly. */
export function isDomain(value: unknown): value is Domain {
  return typeof value === "string" && (DOMAINS as readonly string[]).includes(value);
}

/**
 * A domain name as a release might spell it ("Date/Time", "string processing",
 * "math-numerical") mapped to the table's name, or null when it is none of them.
 */
export function normalizeDomain(value: string): Domain | null {
  const name = value.trim().toLowerCase().replace(/[\s/\-&]+/g, "_").replace(/_and_/g, "_");
  return isDomain(name) ? name : null;
}
