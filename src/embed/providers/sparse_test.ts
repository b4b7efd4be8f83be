import { ok, strictEqual } from "node:assert/strict";
import { bm25Scores } from "./bm25.ts";
import { tfidfScores } from "./tfidf.ts";

const close = (actual: number, expected: number, what: string) =>
  ok(Math.abs(actual - expected) < 1e-5, `${what}: got ${actual}, expected ${expected}`);

// Two documents: "x y" (2 tokens) and "x z z" (3 tokens); avgdl = 2.5, N = 2.
const docs = ["x y", "x z z"];

Deno.test("bm25 matches hand-computed scores (k1 = 1.2, b = 0.75)", () => {
  const s = bm25Scores(["z", "x", "w"], docs);
  strictEqual(s.length, 6);
  // "z": df 1, idf = ln(1 + 1.5/1.5) = ln 2 = 0.693147; doc 1: tf 2,
  // K = 1.2 * (0.25 + 0.75 * 3/2.5) = 1.38; score = 0.693147 * 2 * 2.2 / 3.38 = 0.902320.
  close(s[0], 0, "z·doc0");
  close(s[1], 0.902320, "z·doc1");
  // "x": df 2, idf = ln(1 + 0.5/2.5) = 0.182322; doc 0: K = 1.02 → 0.182322 * 2.2 / 2.02 = 0.198569;
  // doc 1: K = 1.38 → 0.182322 * 2.2 / 2.38 = 0.168532.
  close(s[2], 0.198569, "x·doc0");
  close(s[3], 0.168532, "x·doc1");
  // Unknown term scores nothing.
  close(s[4], 0, "w·doc0");
  close(s[5], 0, "w·doc1");
});

Deno.test("bm25 counts a repeated query term twice", () => {
  const once = bm25Scores(["z"], docs);
  const twice = bm25Scores(["z z"], docs);
  close(twice[1], 2 * once[1], "z z·doc1");
});

Deno.test("tfidf matches hand-computed cosines (smoothed idf)", () => {
  const s = tfidfScores(["z", "x y", "w"], docs);
  // idf(x) = ln(3/3) + 1 = 1; idf(y) = idf(z) = ln(3/2) + 1 = 1.405465.
  // doc0 = (x 1, y 1.405465), |doc0| = 1.724915; doc1 = (x 1, z 2.810930), |doc1| = 2.983509.
  close(s[0], 0, "z·doc0");
  close(s[1], 2.810930 / 2.983509, "z·doc1"); // 0.942156
  close(s[2], 1, "xy·doc0");
  close(s[3], 1 / (1.724915 * 2.983509), "xy·doc1"); // 0.194316
  close(s[4], 0, "w·doc0");
  close(s[5], 0, "w·doc1");
});

Deno.test("bm25 ranks the snippet sharing the query's words first", () => {
  const pool = [
    "def reverse_string(s):\n    return s[::-1]",
    "def count_vowels(text):\n    return sum(c in 'aeiou' for c in text)",
  ];
  const s = bm25Scores(["Count the vowels in a text"], pool);
  ok(s[1] > s[0]);
});
