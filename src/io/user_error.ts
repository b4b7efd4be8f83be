// A leaf module: every stage throws it and the CLI catches it, so it lives
// below both (imports point down the data flow, never up into src/cli).

/**
 * An error the user can fix (bad flag, missing file, bad input). The CLI
 * prints its message as one line and exits non-zero, without a stack trace.
 */
export class UserError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
    this.name = "UserError";
  }
}
