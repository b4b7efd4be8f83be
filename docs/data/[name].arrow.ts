// Every table of the site, one loader for all: Framework passes the table as --name
// (src/site/site_data.ts lists the site's data files; the tables come from the catalog).
import { loaderName, writeSiteData } from "../../src/site/site_data.ts";
await writeSiteData(`${loaderName()}.arrow`);
