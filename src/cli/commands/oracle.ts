import { type Command, UserError } from "../command.ts";

/** `execret oracle`: execute every snippet's tests; build queries, corpus, validation. */
export const oracleCommand: Command = {
  name: "oracle",
  summary: "Execute every snippet's tests; build queries, corpus, validation",
  help: `usage: execret oracle [options]

Execute every snippet's tests; build queries, corpus, validation. Not implemented yet.`,
  run() {
    return Promise.reject(new UserError("not implemented yet"));
  },
};
