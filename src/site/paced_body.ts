/**
 * A response body sent no faster than a shared link allows: every body made
 * by one {@link Link} takes its turn on the same bytes-per-second budget, as
 * a visitor's connection does, so a page that fetches two files at once gets
 * each at half the rate. For the site's download-budget test
 * (test/site/budget_test.ts), which serves the built site at ~20 Mbit/s.
 *
 * @module
 */

/** A shared link of `bytesPerSecond`; {@link Link.body} streams a file through it. */
export interface Link {
  /** The file's bytes as a stream paced by the link; `done(bytes)` when all were sent or the reader stopped. */
  body(file: Deno.FsFile, done: (bytes: number) => void): ReadableStream<Uint8Array>;
}

/** The chunk a paced body sends at a time (about 6 ms at 20 Mbit/s). */
const CHUNK = 16 * 1024;

/**
 * A link of `bytesPerSecond`. Each chunk books the next free slot of the
 * link and is sent when its slot ends, so the total rate over all bodies
 * never exceeds the budget, whatever their number.
 */
export function pacedLink(bytesPerSecond: number): Link {
  if (!(bytesPerSecond > 0)) {
    throw new Error(`pacedLink: bytesPerSecond ${bytesPerSecond} is not > 0`);
  }
  let free = 0; // performance.now() at which the link is next idle
  const slot = (bytes: number): Promise<void> => {
    const now = performance.now();
    free = Math.max(free, now) + (bytes / bytesPerSecond) * 1000;
    const wait = free - now;
    return new Promise((resolve) => setTimeout(resolve, wait));
  };
  return {
    body(file, done) {
      let sent = 0;
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        file.close();
        done(sent);
      };
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          const buffer = new Uint8Array(CHUNK);
          const n = await file.read(buffer);
          if (n === null) {
            controller.close();
            finish();
            return;
          }
          await slot(n);
          sent += n;
          controller.enqueue(buffer.subarray(0, n));
        },
        cancel: finish,
      }, { highWaterMark: 0 });
    },
  };
}
