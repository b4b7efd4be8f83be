import { defineProvider } from "../provider_entry.ts";

/**
 * Registry entry for vectors imported from the paper's released .npz
 * matrices (src/embed/release_embeddings.ts): dense configs whose files
 * the release import writes; there is nothing to call.
 */
export const releaseEntry = defineProvider({
  name: "release",
  kind: "dense",
  hosted: false,
  create: (inv) =>
    Promise.reject(
      new Error(`${inv.name}: vectors come from the paper's release .npz; there is no API to call`),
    ),
});
