/**
 * One embed worker process (started by `parallel_embed.ts`): it loads one
 * offline model, then embeds whole batches sent as JSON lines on stdin and
 * answers each on stdout. It runs the same provider code the stage runs
 * in-process, so a batch gets the same vectors whichever process embeds it.
 *
 * Messages in: `{t: "init", inv, models}` once, then `{t: "embed", id, role,
 * texts}`. Out: `{t: "ready"}` after the model loaded, then per batch
 * `{t: "vectors", id, dims, data, truncated}` (`data`: base64 of the
 * little-endian float32 values, exact to the bit) or `{t: "error", id,
 * message}`. The worker exits when stdin closes.
 */
import { Buffer } from "node:buffer";
import type { Invocation } from "./invocation.ts";
import { type DenseProvider, embedWithReport, type Role } from "./provider.ts";
import { eachLine } from "../io/child_process.ts";

interface InMessage {
  t: "init" | "embed";
  inv?: Invocation;
  models?: string;
  id?: number;
  role?: Role;
  texts?: string[];
}

const encoder = new TextEncoder();
// Writes are chained so one answer's bytes never interleave with another's.
let writing = Promise.resolve();
function send(message: unknown): Promise<void> {
  const bytes = encoder.encode(JSON.stringify(message) + "\n");
  writing = writing.then(async () => {
    let off = 0;
    while (off < bytes.length) off += await Deno.stdout.write(bytes.subarray(off));
  });
  return writing;
}

/** Flatten a batch's vectors into the base64 wire form. */
function packVectors(vectors: Float32Array[]): { dims: number; data: string } {
  const dims = vectors[0]?.length ?? 0;
  const flat = new Float32Array(vectors.length * dims);
  vectors.forEach((v, i) => flat.set(v, i * dims));
  return { dims, data: Buffer.from(flat.buffer).toString("base64") };
}

let provider: DenseProvider | undefined;
let queue = Promise.resolve();

async function handle(message: InMessage): Promise<void> {
  if (message.t === "init") {
    const inv = message.inv!;
    const { providerEntry, providerFor } = await import("./provider_registry.ts");
    provider = await providerFor(inv, { env: { EXECRET_MODELS: message.models } }) as DenseProvider;
    // A provider may load its model on first use; load it now so "ready" means ready.
    await providerEntry(inv.provider).warm?.();
    await send({ t: "ready" });
    return;
  }
  const id = message.id!;
  try {
    if (!provider) throw new Error("embed before init");
    const texts = message.texts!;
    const role = message.role!;
    const report = await embedWithReport(provider, texts, role);
    await send({ t: "vectors", id, ...packVectors(report.vectors), truncated: report.truncated });
  } catch (e) {
    await send({ t: "error", id, message: (e as Error).message.split("\n")[0] });
  }
}

await eachLine(Deno.stdin.readable, (line) => {
  if (line.trim() === "") return;
  const message = JSON.parse(line) as InMessage;
  // One batch at a time, in arrival order.
  queue = queue.then(() => handle(message)).catch(async (e) => {
    await send({ t: "failed", message: (e as Error).message.split("\n")[0] });
    Deno.exit(3);
  });
});
await queue;
await writing;
