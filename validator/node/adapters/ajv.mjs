// toolproof/1 adapter: Ajv, strict, all errors, formats; no coercion, defaults or removal.
import { serveAjv } from "./ajv-common.mjs";

serveAjv("ajv");
