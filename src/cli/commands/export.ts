import { type Command, UserError } from "../command.ts";

/** `execret export`: write trec runs/qrels and a beir-layout copy of the benchmark. */
export const exportCommand: Command = {
  name: "export",
  summary: "Write TREC runs/qrels and a BEIR-layout copy of the benchmark",
  help: `usage: execret export [options]

Write TREC runs/qrels and a BEIR-layout copy of the benchmark. Not implemented yet.`,
  run() {
    return Promise.reject(new UserError("not implemented yet"));
  },
};
