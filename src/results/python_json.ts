/**
 * JSON as Python's `json.dumps` writes it with its defaults (", " and ": "
 * between items, non-ASCII escaped, a float always with a fraction or an
 * exponent: `1.0`, `5e-05`), so a file the kit writes in the release's format
 * reads the same to the release's own scripts and compares byte for byte
 * with one they wrote.
 */

/** A number Python holds as a float (written `1.0`, never `1`). */
export class PyFloat {
  constructor(readonly value: number) {}
}

/**
 * Python's `repr` of a float (what `json.dumps` writes): the shortest
 * round-trip digits, as JavaScript finds them, in Python's layout.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { pyFloatRepr } from "./python_json.ts";
 * strictEqual(pyFloatRepr(1), "1.0");
 * strictEqual(pyFloatRepr(0.4167), "0.4167");
 * strictEqual(pyFloatRepr(0.00005), "5e-05");
 * strictEqual(pyFloatRepr(1.5e-7), "1.5e-07");
 * strictEqual(pyFloatRepr(1e16), "1e+16");
 * strictEqual(pyFloatRepr(-0), "-0.0");
 * ```
 */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const abs = Math.abs(x);
  // Python switches to an exponent below 1e-4 and from 1e16 on.
  if (abs < 1e-4 || abs >= 1e16) {
    const [mantissa, exponent] = x.toExponential().split("e");
    const sign = exponent.startsWith("-") ? "-" : "+";
    const digits = exponent.replace(/^[+-]/, "").padStart(2, "0");
    return `${mantissa}e${sign}${digits}`;
  }
  const s = String(x);
  return s.includes(".") || s.includes("e") ? s : `${s}.0`;
}

function pyString(s: string): string {
  // JSON.stringify escapes what JSON must; Python also escapes every non-ASCII code unit.
  return JSON.stringify(s).replace(
    /[\u007f-\uffff]/g,
    (c) => c.charCodeAt(0) < 0x80 ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * `json.dumps(value)` as Python would write it, for values made of null,
 * booleans, integers (plain numbers), {@link PyFloat}s, strings, arrays and
 * plain objects (keys in insertion order).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { PyFloat, pythonJson } from "./python_json.ts";
 * strictEqual(
 *   pythonJson({ k: [1, 3], v: new PyFloat(1), s: "é", ok: true, none: null }),
 *   '{"k": [1, 3], "v": 1.0, "s": "\\u00e9", "ok": true, "none": null}',
 * );
 * ```
 */
export function pythonJson(value: unknown): string {
  if (value === null) return "null";
  if (value instanceof PyFloat) return pyFloatRepr(value.value);
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isInteger(value)) {
        throw new Error(`${value} is not an integer: wrap it in PyFloat`);
      }
      return String(value);
    case "string":
      return pyString(value);
  }
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (typeof value === "object") {
    const items = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${pyString(k)}: ${pythonJson(v)}`);
    return `{${items.join(", ")}}`;
  }
  throw new Error(`cannot write ${typeof value} as JSON`);
}

/**
 * Python's `round(x, digits)`: to the nearest, and on an exact tie (the
 * double itself sits halfway, e.g. 1/32 = 0.03125 at 4 digits) to the even
 * digit, where JavaScript's `toFixed` rounds up.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { pyRound } from "./python_json.ts";
 * strictEqual(pyRound(0.03125, 4), 0.0312); // Python's round(0.03125, 4)
 * strictEqual(pyRound(0.09375, 4), 0.0938);
 * strictEqual(pyRound(2 / 3, 4), 0.6667);
 * strictEqual(pyRound(-0.03125, 4), -0.0312);
 * ```
 */
export function pyRound(x: number, digits: number): number {
  if (!Number.isFinite(x)) return x;
  // toFixed(n) is the exact decimal of the double (to n digits): a tie shows as 5 then zeros.
  const exact = Math.abs(x).toFixed(Math.min(100, digits + 60));
  const dot = exact.indexOf(".");
  const tail = exact.slice(dot + 1 + digits);
  if (tail[0] === "5" && /^5?0*$/.test(tail)) {
    const kept = exact.slice(0, dot + 1 + digits);
    const lastDigit = Number(kept[kept.length - 1] === "." ? kept[kept.length - 2] : kept.at(-1));
    const down = Number(kept);
    const value = lastDigit % 2 === 0 ? down : Number((down + 10 ** -digits).toFixed(digits));
    return x < 0 ? -value : value;
  }
  return Number(x.toFixed(digits));
}
