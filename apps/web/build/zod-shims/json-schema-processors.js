// Stands in for zod's `core/json-schema-processors.js` in the console build (ADR 0032,
// build/zod-without-json-schema.ts). zod's classic schemas reference these only to turn a schema
// into JSON Schema, or to read derived bounds (`.minLength`, `.isInt`); the console does neither.
// Every name zod's classic schemas use is here (build/zod-without-json-schema.test.ts checks it).

/** What any JSON Schema use answers in the console. */
export function jsonSchemaLeftOut() {
  throw new Error(
    'zod JSON Schema generation (and derived bounds such as .minLength) is left out of the console build: ADR 0032',
  );
}

export const aggregateChecks = jsonSchemaLeftOut;
export const anyProcessor = jsonSchemaLeftOut;
export const arrayProcessor = jsonSchemaLeftOut;
export const bigintProcessor = jsonSchemaLeftOut;
export const booleanProcessor = jsonSchemaLeftOut;
export const catchProcessor = jsonSchemaLeftOut;
export const customProcessor = jsonSchemaLeftOut;
export const dateProcessor = jsonSchemaLeftOut;
export const defaultProcessor = jsonSchemaLeftOut;
export const enumProcessor = jsonSchemaLeftOut;
export const fileProcessor = jsonSchemaLeftOut;
export const functionProcessor = jsonSchemaLeftOut;
export const intersectionProcessor = jsonSchemaLeftOut;
export const lazyProcessor = jsonSchemaLeftOut;
export const literalProcessor = jsonSchemaLeftOut;
export const mapProcessor = jsonSchemaLeftOut;
export const nanProcessor = jsonSchemaLeftOut;
export const neverProcessor = jsonSchemaLeftOut;
export const nonoptionalProcessor = jsonSchemaLeftOut;
export const nullProcessor = jsonSchemaLeftOut;
export const nullableProcessor = jsonSchemaLeftOut;
export const numberProcessor = jsonSchemaLeftOut;
export const objectProcessor = jsonSchemaLeftOut;
export const optionalProcessor = jsonSchemaLeftOut;
export const pipeProcessor = jsonSchemaLeftOut;
export const prefaultProcessor = jsonSchemaLeftOut;
export const promiseProcessor = jsonSchemaLeftOut;
export const readonlyProcessor = jsonSchemaLeftOut;
export const recordProcessor = jsonSchemaLeftOut;
export const setProcessor = jsonSchemaLeftOut;
export const stringProcessor = jsonSchemaLeftOut;
export const successProcessor = jsonSchemaLeftOut;
export const symbolProcessor = jsonSchemaLeftOut;
export const templateLiteralProcessor = jsonSchemaLeftOut;
export const transformProcessor = jsonSchemaLeftOut;
export const tupleProcessor = jsonSchemaLeftOut;
export const undefinedProcessor = jsonSchemaLeftOut;
export const unionProcessor = jsonSchemaLeftOut;
export const unknownProcessor = jsonSchemaLeftOut;
export const voidProcessor = jsonSchemaLeftOut;
