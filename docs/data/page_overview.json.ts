// The overview page's query results, computed at build time (src/site/page_data.ts).
import { streamPageData } from "../../src/site/page_data.ts";
await streamPageData("overview");
