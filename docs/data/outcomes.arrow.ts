import { snippetOutcomesStream } from "../../src/site/outcomes_table.ts";
import { writeAll } from "../../src/site/stdout.ts";
await writeAll(await snippetOutcomesStream());
