import { createRequire } from 'node:module';

// Plugins are resolved from this package, so every workspace package can use the config under
// pnpm's strict node_modules layout.
const require = createRequire(import.meta.url);

/** @type {import('prettier').Config} */
const config = {
  singleQuote: true,
  trailingComma: 'all',
  printWidth: 100,
  plugins: [
    require.resolve('@ianvs/prettier-plugin-sort-imports'),
    require.resolve('prettier-plugin-tailwindcss'),
  ],
  importOrder: [
    '<TYPES>',
    '<THIRD_PARTY_MODULES>',
    '',
    '<TYPES>^@wsc/',
    '^@wsc/(.*)$',
    '',
    '<TYPES>^@/',
    '^@/(.*)$',
    '',
    '<TYPES>^[.]',
    '^[.]',
  ],
  tailwindFunctions: ['cn', 'cva'],
};

export default config;
