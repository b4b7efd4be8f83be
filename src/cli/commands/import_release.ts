import { type Command, UserError } from "../command.ts";

/** `execret import-release`: load and audit the paper's released bundle. */
export const importReleaseCommand: Command = {
  name: "import-release",
  summary: "Load and audit the paper's released bundle",
  help: `usage: execret import-release [options]

Load and audit the paper's released bundle. Not implemented yet.`,
  run() {
    return Promise.reject(new UserError("not implemented yet"));
  },
};
