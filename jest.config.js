// One Jest run for every Node package. Tiers are told apart by suffix:
// *.unit.spec.ts (pure), *.int.spec.ts (real servers from infra/), *.e2e.spec.ts (whole process or browser).
const swc = [
  '@swc/jest',
  {
    jsc: {
      target: 'es2023',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
    },
    module: { type: 'commonjs' },
  },
];

/** @type {import('jest').Config} */
module.exports = {
  // Node's, printing a failed test's open browser pages (testkit/jest-environment.cjs).
  testEnvironment: '<rootDir>/testkit/jest-environment.cjs',
  roots: [
    '<rootDir>/contracts',
    '<rootDir>/api',
    '<rootDir>/projections',
    '<rootDir>/desktop',
    '<rootDir>/testkit',
    '<rootDir>/infra',
    '<rootDir>/web/e2e',
    '<rootDir>/admin/e2e',
  ],
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.ts$': swc },
  // Tests run the contracts' source; the built package (contracts/dist) is what dist/ requires.
  // The shared test kits are source only: `@meshwork/testkit/<path>` is testkit/src/<path>.
  moduleNameMapper: {
    '^@meshwork/contracts$': '<rootDir>/contracts/src/index.ts',
    '^@meshwork/testkit/(.*)$': '<rootDir>/testkit/src/$1',
  },
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // Integration tests start processes and real servers; two cores run them best one file at a time each.
  maxWorkers: 2,
  testTimeout: 60_000,
};
