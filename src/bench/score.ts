import { UserError } from "../cli/command.ts";

/** `execret bench score`: not implemented yet. */
export function benchScore(_args: string[]): Promise<number> {
  return Promise.reject(new UserError("bench score is not implemented yet"));
}
