import { perQuerySubset } from "../../src/site/per_query_subset.ts";
import { writeAll } from "../../src/site/stdout.ts";
await writeAll(await perQuerySubset(["margin"]));
