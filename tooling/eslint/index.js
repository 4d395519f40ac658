// Shared flat ESLint config for the whole workspace (house rules 9, 13 and 14 of the style guide:
// one env reader per app, shared tooling, separate type imports and no non-null assertions).
import { existsSync, readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Files that may read `process.env`: each app's single env.ts, scripts, tests and tooling. */
const envAllowed = [
  '**/env.ts',
  '**/*.test.ts',
  '**/*.test.tsx',
  '**/test/**',
  '**/testing/**',
  '**/scripts/**',
  '**/*.config.ts',
  '**/*.config.js',
  '**/*.config.mjs',
  'e2e/**',
  'bench/**',
];

/** The web app's feature folders, each a zone of its own (none where the app is not checked out). */
const webFeaturesDir = new URL('../../apps/web/src/features', import.meta.url);
const webFeatures = existsSync(webFeaturesDir)
  ? readdirSync(webFeaturesDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  : [];

/** Imports that no shared web code (components, lib, queries, testing) may make. */
const sharedWebCodeMayNotImport = [
  {
    regex: '^@/(features|routes)/',
    message: 'Shared code never imports features or routes: move what both need into shared code.',
  },
  {
    regex: '^(\\.\\./)+(features|routes)/',
    message: 'Shared code never imports features or routes: move what both need into shared code.',
  },
];

/**
 * The web app's import zones (house rule: code flows one way, shared -> features -> routes).
 * Shared code never imports a feature or a route; a feature never imports another feature or a
 * route (routes compose features). Relative imports may not climb out of a feature's folder.
 */
const webImportZones = [
  {
    files: ['apps/web/src/{components,lib,queries,testing}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: sharedWebCodeMayNotImport }],
    },
  },
  ...webFeatures.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^@/features/(?!${feature}/)`,
              message: `A feature never imports another feature: move what both need into components/, lib/ or queries/, or compose them in a route.`,
            },
            {
              regex: '^@/routes/',
              message: 'A feature never imports a route; routes compose features.',
            },
            {
              regex: '^(\\.\\./){2,}',
              message: `Import from outside the feature through the @/ alias (shared code only).`,
            },
          ],
        },
      ],
    },
  })),
];

export const base = tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      '**/.data/**',
      '**/routeTree.gen.ts',
      '**/playwright-report/**',
      '**/test-results/**',
      'e2e/screenshots/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'separate-type-imports' },
      ],
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration through the app env.ts.',
        },
      ],
    },
  },
  {
    files: envAllowed,
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['apps/web/**/*.tsx', 'apps/web/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  ...webImportZones,
);

export default base;
