// The SQL console page, made when the site is built: its tables are the catalog's
// (src/site/sql_page.ts), so a new table reaches the console with no edit of the page.
import { sqlPage } from "../src/site/sql_page.ts";
import { writeAll } from "../src/site/stdout.ts";
await writeAll(new TextEncoder().encode(sqlPage()));
