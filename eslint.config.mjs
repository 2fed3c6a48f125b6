// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** The api's bounded contexts: each reaches another only through that one's public index.ts. */
const CONTEXTS = [
  'accounts',
  'admin',
  'analytics',
  'audit',
  'billing',
  'catalog',
  'contact',
  'health',
  'identity',
  'networks',
  'operations',
];

const byName = {
  group: ['**/contracts/src/**', '@contracts/*'],
  message: "Import the contracts by name: from '@meshwork/contracts'.",
};

/**
 * Each context reaches another only through that one's public index.ts, or its events.ts (event
 * types and names, which any context may read); the platform reaches none. Circles between
 * contexts, type-only imports included, are infra/lint/context-cycles.mjs's to refuse.
 */
const contextZones = [
  ...CONTEXTS.flatMap((context) =>
    CONTEXTS.filter((other) => other !== context).map((other) => ({
      target: `./api/src/${context}`,
      from: `./api/src/${other}`,
      except: ['./index.ts', './events.ts'],
      message: `Reach the ${other} context through its public index.ts (or its events.ts).`,
    })),
  ),
  ...CONTEXTS.map((context) => ({
    target: './api/src/platform',
    from: `./api/src/${context}`,
    message: 'The platform serves the contexts; it never imports one.',
  })),
];

// Dependencies run one way, projections -> api: the projection runtime lives in the api's
// platform, projections/ holds only the worker process (its commands are in api/src/cli/). Tests included.
const notProjections = {
  regex: '(^|/)projections/src(/|$)|^@meshwork/projections(/|$)',
  message: 'The api never imports projections/ (it depends on the api, not the other way): use api/src/platform/projections/.',
};

// One `no-restricted-imports` applies per file: a later block's replaces an earlier one's, so
// each block lists every pattern its files must obey.
const importRules = [
  {
    files: ['**/*.{ts,tsx}'],
    ignores: ['contracts/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [byName] }] },
  },
  {
    files: ['api/**/*.{ts,tsx,js,mjs,cjs}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [byName, notProjections] }] },
  },
  {
    // No import cycles between the server's modules; no context reaching into another's inside.
    files: ['api/**/*.ts', 'projections/**/*.ts', 'contracts/**/*.ts', 'desktop/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['api/src/**/*.ts'],
    // Tests and their kits arrange the world across contexts; a process's entry point composes it.
    ignores: ['**/*.spec.ts', '**/testing/**', '**/*.main.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: contextZones }] },
  },
];

export default defineConfig([
  globalIgnores(['**/dist/', 'web/dist-server/', '**/node_modules/', '.infra/', '.data/', '**/coverage/', 'test-results/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  ...importRules,
  {
    // Servers, scripts and the desktop runtime run on Node.
    files: [
      'api/**',
      'projections/**',
      'contracts/**',
      'infra/**',
      'testkit/**',
      'desktop/**',
      'web/scripts/**',
      'admin/scripts/**',
      '*.{js,mjs,cjs,ts}',
    ],
    ignores: ['desktop/ui/src/**'],
    languageOptions: { globals: globals.node },
  },
  {
    // The customer site, the staff console and the host's window run in the browser.
    files: ['web/src/**', 'admin/src/**', 'desktop/ui/src/**'],
    languageOptions: { globals: globals.browser },
    extends: [reactHooks.configs.flat.recommended],
  },
  {
    files: ['**/*.cjs', 'jest.config.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // A focused test silently skips every other one in CI, and a skipped one stops proving
    // anything without failing: `npm test` must run them all. (No spec file gets another
    // no-restricted-syntax: one block's would replace this one's.)
    files: ['**/*.spec.*', '**/*.test.*'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'MemberExpression[property.name=/^(only|skip|skipIf|runIf)$/]:matches([object.name=/^(describe|it|test|suite)$/], [object.object.name=/^(describe|it|test|suite)$/])',
          message: 'No focused or skipped tests: CI runs them all. Delete the test, or fix it.',
        },
        {
          selector:
            ':matches(CallExpression[callee.name=/^(fit|fdescribe|xit|xtest|xdescribe)$/], MemberExpression[object.name=/^(fit|fdescribe|xit|xtest|xdescribe)$/])',
          message: 'No focused or skipped tests: CI runs them all. Delete the test, or fix it.',
        },
      ],
    },
  },
  {
    // Errors say their kind; the one exception filter turns kinds into HTTP statuses.
    files: ['api/src/**/*.ts', 'projections/src/**/*.ts'],
    // Tests build errors by hand to check the mapping.
    ignores: ['api/src/platform/domain/errors.ts', '**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'NewExpression[callee.name=/Error$/][arguments.0.raw=/^[0-9]/]',
          message: 'No HTTP status in an error: throw by kind (notFound(), conflict(), ruleBroken(), ... from platform/domain/errors).',
        },
        {
          selector: "NewExpression[callee.name='DomainError']",
          message: 'Throw domain errors through their helpers (notFound(), conflict(), ruleBroken(), ... from platform/domain/errors).',
        },
      ],
    },
  },
]);
