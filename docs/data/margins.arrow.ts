import { perQuerySubset } from "../../loaders/per_query_subset.ts";
import { writeAll } from "../../loaders/_stdout.ts";
await writeAll(await perQuerySubset(["margin"]));
