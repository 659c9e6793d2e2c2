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
  // marked ships only ES modules; jest runs CommonJS, so it is transformed like our code.
  transformIgnorePatterns: ['/node_modules/(?!marked/)'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'json'],
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
};

module.exports = {
  projects: [
    {
      ...common,
      displayName: 'server',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts?(x)', '<rootDir>/test/integration/**/*.test.ts?(x)'],
    },
    {
      ...common,
      displayName: 'browser',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/browser/**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/helpers/browser-setup.ts'],
    },
  ],
};
