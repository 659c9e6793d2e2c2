// Tests run TypeScript through @swc/jest: it strips types without calling the TypeScript API
// (see docs/decisions/002-typescript-and-test-transform.md); `npm run typecheck` checks types.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

const common = {
  transform: { '^.+\\.(t|j|mj)sx?$': swc },
  // marked, parse5 (with the entities it decodes with) and the d3 modules the reports draw their
  // charts with ship only ES modules; jest runs CommonJS, so they are transformed like our code.
  transformIgnorePatterns: ['/node_modules/(?!(marked|parse5|parse5-sax-parser|entities|d3-[a-z-]+|internmap)/)'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'json'],
  testEnvironment: 'node',
  // The libraries' production builds, as the server runs them (the file says why).
  setupFiles: ['<rootDir>/test/helpers/production-libraries.ts'],
};

const { availableParallelism } = require('node:os');

module.exports = {
  // One test file more than the cores: most of a test's time is spent waiting for a server, a
  // browser or a process it started, so another file runs in that time. (Jest's own default, one
  // fewer than the cores, is a single file at a time on two cores.)
  maxWorkers: availableParallelism() + 1,
  testSequencer: '<rootDir>/test/helpers/test-sequencer.js',
  // Integration and browser tests render pages, start servers and browsers: on a busy 2-core
  // machine that takes more than jest's 5 s default, which then fails them for nothing.
  testTimeout: 30_000,
  projects: [
    {
      // Pure modules: no build, no browser, no Java (npm run test:unit). The setup only writes
      // shared/generated/ from content/ when it is missing, which site constants come from.
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts?(x)'],
      globalSetup: '<rootDir>/test/helpers/unit-setup.ts',
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts?(x)'],
      globalSetup: '<rootDir>/test/helpers/global-setup.ts',
    },
    {
      ...common,
      displayName: 'browser',
      globalSetup: '<rootDir>/test/helpers/browser-global-setup.ts',
      globalTeardown: '<rootDir>/test/helpers/browser-global-teardown.ts',
      testMatch: ['<rootDir>/test/browser/**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/helpers/browser-setup.ts'],
    },
  ],
};
