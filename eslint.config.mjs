// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig([
  globalIgnores(['**/dist/', '**/node_modules/', '.infra/', '.data/', '**/coverage/', 'test-results/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    // Servers, scripts and the desktop runtime run on Node.
    files: ['api/**', 'projections/**', 'contracts/**', 'infra/**', 'desktop/**', '*.{js,mjs,cjs,ts}'],
    languageOptions: { globals: globals.node },
  },
  {
    // The customer site and the staff console run in the browser.
    files: ['web/src/**', 'admin/src/**'],
    languageOptions: { globals: globals.browser },
    extends: [reactHooks.configs.flat.recommended],
  },
  {
    files: ['**/*.cjs', 'jest.config.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
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
  {
    // Dependencies run one way, projections -> api: the projection runtime lives in the api's
    // platform, projections/ holds only its processes (worker, rebuild, retry). Tests included.
    // Anything else the api must not import goes into this same block: a second
    // `no-restricted-imports` for these files would replace this one, not add to it.
    files: ['api/**/*.{ts,tsx,js,mjs,cjs}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)projections/src(/|$)|^@meshwork/projections(/|$)',
              message: 'The api never imports projections/ (it depends on the api, not the other way): use api/src/platform/projections/.',
            },
          ],
        },
      ],
    },
  },
]);
