// Specs boot the real app in-process on a real port (test/e2e/support/server.ts).
// The Swagger CLI plugin runs as a ts-jest AST transformer so DTO schemas exist in tests too.
module.exports = {
  rootDir: '..',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.spec.ts'],
  // Tests build dist/ (the crash test runs it as `npm start` does); its package.json copy is not a module.
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
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
