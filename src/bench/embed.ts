import { UserError } from "../cli/command.ts";

/** `execret bench embed`: not implemented yet. */
export function benchEmbed(_args: string[]): Promise<number> {
  return Promise.reject(new UserError("bench embed is not implemented yet"));
}
