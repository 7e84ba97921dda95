// toolproof/1 adapter: Ajv with coerceTypes: true; passes on the data as Ajv left it.
import { serveAjv } from "./ajv-common.mjs";

serveAjv("ajv-coerce", { coerceTypes: true }, true);
