import type { Command } from "./command.ts";
import { tasksCommand } from "./commands/tasks.ts";
import { mutateCommand } from "./commands/mutate.ts";
import { oracleCommand } from "./commands/oracle.ts";
import { embedCommand } from "./commands/embed.ts";
import { scoreCommand } from "./commands/score.ts";
import { statsCommand } from "./commands/stats.ts";
import { exportCommand } from "./commands/export.ts";
import { sqlCommand } from "./commands/sql.ts";
import { checkCommand } from "./commands/check.ts";
import { benchCommand } from "./commands/bench.ts";
import { reproduceCommand } from "./commands/reproduce.ts";
import { importReleaseCommand } from "./commands/import_release.ts";
import { fetchReleaseCommand } from "./commands/fetch_release.ts";
import { mergeCacheCommand } from "./commands/merge_cache.ts";
import { leaderboardCommand } from "./commands/leaderboard.ts";

/** Every subcommand, in pipeline order. */
export const commands: Command[] = [
  tasksCommand,
  mutateCommand,
  oracleCommand,
  embedCommand,
  scoreCommand,
  statsCommand,
  leaderboardCommand,
  exportCommand,
  sqlCommand,
  checkCommand,
  benchCommand,
  reproduceCommand,
  fetchReleaseCommand,
  importReleaseCommand,
  mergeCacheCommand,
];
