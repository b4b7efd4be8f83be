import { type Command, parseFlags, printJson } from "../command.ts";
import { UserError } from "../../io/user_error.ts";
import { currentProfile, ensureStage } from "../../pipeline/run_pipeline.ts";
import { outDir } from "../../io/paths.ts";
import { invocationFor } from "../../embed/invocations.ts";
import { missingRequirements } from "../../embed/provider_registry.ts";
import { addEntry } from "../../leaderboard/add_entry.ts";
import { verifyBoard } from "../../leaderboard/stage.ts";
import { entryPath, leaderboardDir, listEntries } from "../../leaderboard/entries.ts";
import type { EntryOutcome } from "../../leaderboard/verify_entry.ts";
import { meanOf } from "../../leaderboard/verify_entry.ts";

const HELP = `usage: execret leaderboard verify [PATH...] [--json]
       execret leaderboard add CONFIG [--name NAME] [--revision R] [--by WHO] [--root DIR]

verify   Score each leaderboard entry (leaderboard/<benchmark>/<name>/: meta.json
         and its run file) from its ranked lists and this run's own verdicts:
         its pool must be this run's (by digest), every query and document of
         the pool's, its ranks 1..k (k >= 10) with scores never increasing;
         the numbers meta.json claims must be what its lists give. Where the
         model can be reached from here (a built-in retriever, a local model
         folder, a server or an API whose key is set) a sample of its queries
         is embedded again and must rank alike (level re-embedded); else the
         entry is scored. A refused entry gets one line naming the file and
         the line or field; the exit code is 1 if any was refused.
         PATH: entry folders (default: every entry of this run's benchmark).
         The run is the one in EXECRET_OUT (default out/); its profile is the
         benchmark. Its tables are made current first.

add      Write leaderboard/<benchmark>/<name>/run.trec.gz and meta.json from
         CONFIG of this run: each query's top 10 (and documents tied with the
         10th) and its own canonical and distractors, with CONFIG's scores;
         meta.json with CONFIG's invocation, the pool's digest and the run's
         exec@1 and exec@10. Then commit the folder and open a pull request.

options:
  --name NAME      the entry's folder and config name on the board (default CONFIG)
  --revision R     the model's version or revision (default "unversioned")
  --by WHO         who ran it (default: git config user.name, else $USER)
  --root DIR       the leaderboard folder (default: the repository's leaderboard/)`;

async function gitLine(args: string[]): Promise<string | null> {
  try {
    const out = await new Deno.Command("git", { args, stdout: "piped", stderr: "null" }).output();
    const text = new TextDecoder().decode(out.stdout).trim();
    return out.success && text !== "" ? text : null;
  } catch {
    return null;
  }
}

/** Every model the entry's invocation needs is reachable from here. */
function reachable(inv: Parameters<typeof missingRequirements>[0]): boolean {
  return missingRequirements(inv).length === 0;
}

function line(o: EntryOutcome): string {
  if (!o.ok) return `refused ${o.reason}`;
  const v = o.verified;
  const exec1 = meanOf(v.scored.perQuery, "exec", 1);
  const spot = v.spot
    ? `; spot check ${
      Math.round(v.spot.rank1Agreement * v.spot.queries)
    }/${v.spot.queries} first, top-10 overlap ${v.spot.top10Overlap.toFixed(2)}`
    : "; model not reachable from here, lists scored";
  const own = v.ofRun ? `; the run's own config ${v.entry.name}, on its board under that name` : "";
  return `ok ${v.entry.shown}: ${v.level} (exec@1 ${exec1?.toFixed(3)}${spot}${own})`;
}

/** `execret leaderboard verify|add`. */
export const leaderboardCommand: Command = {
  name: "leaderboard",
  help: HELP,
  async run(args) {
    const [sub, ...rest] = args;
    if (sub === undefined || sub === "--help" || sub === "-h") {
      console.log(HELP);
      return sub === undefined ? 2 : 0;
    }
    const profile = currentProfile();
    if (sub === "verify") {
      const { values, positionals } = parseFlags(rest, {}, true);
      if (values.help) {
        console.log(HELP);
        return 0;
      }
      const entries = positionals.length > 0
        ? positionals.map(entryPath)
        : listEntries(leaderboardDir(), profile.name);
      for (const e of entries) {
        if (e.benchmark !== profile.name) {
          throw new UserError(
            `${e.shown}: an entry of benchmark "${e.benchmark}", but the run in ${outDir()} is of profile "${profile.name}": verify it against a run of that benchmark (make reproduce PROFILE=${e.benchmark}, or EXECRET_OUT=<its folder>)`,
          );
        }
      }
      await ensureStage("rerank", profile, { quiet: true });
      const { outcomes } = await verifyBoard({
        benchmark: profile.name,
        ks: profile.ks,
        quiet: values.json === true,
        reachable,
        entries,
      });
      if (values.json) {
        printJson(outcomes.map((o) =>
          o.ok
            ? {
              entry: o.verified.entry.shown,
              level: o.verified.level,
              exec1: meanOf(o.verified.scored.perQuery, "exec", 1),
              exec10: meanOf(o.verified.scored.perQuery, "exec", 10),
              spot: o.verified.spot,
            }
            : { entry: o.entry.shown, refused: o.reason }
        ));
      } else {
        if (outcomes.length === 0) console.log(`no entries of benchmark "${profile.name}"`);
        for (const o of outcomes) console.log(line(o));
      }
      return outcomes.some((o) => !o.ok) ? 1 : 0;
    }
    if (sub === "add") {
      const { values, positionals } = parseFlags(rest, {
        name: { type: "string" },
        revision: { type: "string" },
        by: { type: "string" },
        root: { type: "string" },
      }, true);
      if (values.help) {
        console.log(HELP);
        return 0;
      }
      if (positionals.length !== 1) throw new UserError("give one CONFIG of this run", 2);
      const config = positionals[0];
      await ensureStage("stats", profile, { quiet: true });
      const invocation = await invocationFor(config);
      const by = values.by ?? await gitLine(["config", "user.name"]) ?? Deno.env.get("USER") ??
        "unknown";
      const sha = await gitLine([
        "-C",
        new URL("../../..", import.meta.url).pathname,
        "rev-parse",
        "--short=12",
        "HEAD",
      ]);
      const written = await addEntry({
        config,
        invocation,
        benchmark: profile.name,
        name: values.name,
        root: values.root ?? leaderboardDir(),
        revision: values.revision ?? "unversioned",
        submittedBy: by,
        date: new Date().toISOString().slice(0, 10),
        kitVersion: sha ? `git:${sha}` : "unknown",
      });
      console.log(`leaderboard add: wrote ${written.run} and ${written.meta}`);
      console.log(
        "next: execret leaderboard verify, then commit the folder and open a pull request",
      );
      return 0;
    }
    throw new UserError(`unknown subcommand "${sub}" (verify or add)`, 2);
  },
};
