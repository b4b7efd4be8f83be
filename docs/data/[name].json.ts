// Every JSON file of the site (each page's build-time data, the run's provenance, the SQL
// console's schema, Your models' data): Framework passes the file's name as --name.
import { loaderName, writeSiteData } from "../../src/site/site_data.ts";
await writeSiteData(`${loaderName()}.json`);
