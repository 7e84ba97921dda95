// toolproof/1 adapter: Ajv with removeAdditional: true; passes on the data as Ajv left it.
import { serveAjv } from "./ajv-common.mjs";

serveAjv("ajv-strip", { removeAdditional: true }, true);
