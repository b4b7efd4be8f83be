import { snippetOutcomesStream } from "../../loaders/snippet_outcomes.ts";
import { writeAll } from "../../loaders/stdout.ts";
await writeAll(await snippetOutcomesStream());
