/** @type {import('prettier').Config} */
const config = {
  singleQuote: true,
  trailingComma: 'all',
  printWidth: 100,
  plugins: ['@ianvs/prettier-plugin-sort-imports', 'prettier-plugin-tailwindcss'],
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
