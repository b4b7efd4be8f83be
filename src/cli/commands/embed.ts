import { type Command, UserError } from "../command.ts";

/** `execret embed`: embed queries and corpus for configs into out/embeddings/. */
export const embedCommand: Command = {
  name: "embed",
  summary: "Embed queries and corpus for configs into out/embeddings/",
  help: `usage: execret embed [options]

Embed queries and corpus for configs into out/embeddings/. Not implemented yet.`,
  run() {
    return Promise.reject(new UserError("not implemented yet"));
  },
};
