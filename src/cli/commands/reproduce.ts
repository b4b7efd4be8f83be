import { type Command, UserError } from "../command.ts";

/** `execret reproduce`: run every stage of a profile, then build the site. */
export const reproduceCommand: Command = {
  name: "reproduce",
  summary: "Run every stage of a profile, then build the site",
  help: `usage: execret reproduce [options]

Run every stage of a profile, then build the site. Not implemented yet.`,
  run() {
    return Promise.reject(new UserError("not implemented yet"));
  },
};
