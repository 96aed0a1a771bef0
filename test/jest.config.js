// Specs boot the real app in-process on a real port (test/e2e/support/server.ts).
// The Swagger CLI plugin runs as a ts-jest AST transformer so DTO schemas exist in tests too.
module.exports = {
  rootDir: '..',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.spec.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      {
        tsconfig: '<rootDir>/tsconfig.json',
        astTransformers: { before: ['<rootDir>/test/support/swagger-plugin.js'] },
      },
    ],
  },
  testTimeout: 30000,
  maxWorkers: 1,
};
