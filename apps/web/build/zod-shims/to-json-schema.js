// Stands in for zod's `core/to-json-schema.js` in the console build (ADR 0032,
// build/zod-without-json-schema.ts): schemas keep their `toJSONSchema()` and `~standard`
// jsonSchema methods, which throw instead of pulling the generator into the first load.
import { jsonSchemaLeftOut } from './json-schema-processors.js';

export const createToJSONSchemaMethod = () => jsonSchemaLeftOut;
export const createStandardJSONSchemaMethod = () => jsonSchemaLeftOut;
