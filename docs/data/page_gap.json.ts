// The gap page's query results, computed at build time (loaders/page_data.ts).
import { streamPageData } from "../../loaders/page_data.ts";
await streamPageData("gap");
