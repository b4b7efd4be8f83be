import { type Command, parseFlags, printJson } from "../command.ts";
import { UserError } from "../../io/user_error.ts";
import { fmtBytes } from "../../release/fetch_progress.ts";
import {
  DEFAULT_RELEASE_REPO,
  DEFAULT_RELEASE_REVISION,
  fetchReleaseBundle,
} from "../../release/fetch_release.ts";

/** `execret fetch-release`: download and verify the paper's release bundle. */
export const fetchReleaseCommand: Command = {
  name: "fetch-release",
  help: `usage: execret fetch-release [REPO][@REVISION] [--json] [--quiet]

Download the release bundle, a Hugging Face dataset repository (default
${DEFAULT_RELEASE_REPO}@${DEFAULT_RELEASE_REVISION}; another REPO without
@REVISION means its main branch), into
$EXECRET_CACHE/releases/<owner>__<name>@<revision>/ and print that folder.

SHA256SUMS at the repository's top level lists every file of the bundle;
each file is downloaded from $HF_ENDPOINT/datasets/REPO/resolve/REVISION/PATH,
resumed from its .part file after an interruption, checked against its
digest and only then given its final name. A rerun skips verified files;
after a complete download it returns at once without network.

Environment:
  HF_ENDPOINT              hub address (default https://huggingface.co)
  HF_TOKEN                 sent as a bearer token (gated or private repositories)
  EXECRET_RELEASE_MIRROR   a folder holding the bundle: verify it there, download nothing

Options:
  --json       print {dir, files, bytes} as JSON
  --quiet      no progress on stderr
  -h, --help   this text`,
  async run(args) {
    const { values, positionals } = parseFlags(args, { quiet: { type: "boolean" } }, true);
    if (values.help) {
      console.log(this.help);
      return 0;
    }
    if (positionals.length > 1) {
      throw new UserError("fetch-release takes at most one [REPO][@REVISION] (see --help)", 2);
    }
    const result = await fetchReleaseBundle(positionals[0], { quiet: values.quiet ?? false });
    if (values.json) {
      printJson({ dir: result.dir, files: result.files, bytes: result.bytes });
    } else {
      const how = result.via === "download"
        ? `downloaded ${fmtBytes(result.downloaded)}`
        : result.via === "cache"
        ? "already complete"
        : "EXECRET_RELEASE_MIRROR";
      console.log(
        `${result.dir}: ${result.files} files, ${fmtBytes(result.bytes)}, verified (${how})`,
      );
    }
    return 0;
  },
};
