/**
 * jest runs the TypeScript sources as native ESM (package.json "type":
 * "module"), because @actions/core 3, @actions/github 9 and @actions/cache 6
 * are ESM-only. `npm test` passes --experimental-vm-modules for that.
 * @type {import('jest').Config}
 */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // Integration tests share one Docker engine and build images: run files serially.
  maxWorkers: 1,
  testTimeout: 120000,
};
