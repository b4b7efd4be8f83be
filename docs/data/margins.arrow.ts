import { perQuerySubset } from "../../loaders/per_query_subset.ts";
import { writeAll } from "../../loaders/stdout.ts";
await writeAll(await perQuerySubset(["margin"]));
