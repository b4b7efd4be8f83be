/** Write all bytes to stdout (a single write may be partial on a pipe): what a data loader prints. */
export async function writeAll(bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await Deno.stdout.write(bytes.subarray(written));
}
