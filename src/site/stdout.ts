/** Where loader output goes instead of stdout while captured (see {@link captureOutput}). */
let sink: ((bytes: Uint8Array) => void) | undefined;

/**
 * Send what loaders write through {@link writeAll} to `into` instead of
 * stdout (`undefined` restores stdout): src/site/prefill_loaders.ts runs every
 * loader in one process and keeps each one's output.
 */
export function captureOutput(into: ((bytes: Uint8Array) => void) | undefined): void {
  sink = into;
}

/** Write all bytes to stdout (a single write may be partial on a pipe). */
export async function writeAll(bytes: Uint8Array): Promise<void> {
  if (sink) return sink(bytes.slice());
  let written = 0;
  while (written < bytes.length) written += await Deno.stdout.write(bytes.subarray(written));
}
