// ESLint: typescript-eslint's recommended rules, no import cycles, Prettier for layout.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', 'node_modules/**', 'coverage/**', 'src/migrations/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  importX.flatConfigs.typescript,
  {
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })] },
    rules: {
      'import-x/no-cycle': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // Each module's SQL lives in its repositories (readers, writers, stores): use cases call them.
    files: ['src/**/*.ts'],
    ignores: [
      'src/**/*.reader.ts',
      'src/**/*.writer.ts',
      'src/**/*.store.ts',
      'src/modules/*/store/**',
      'src/common/database/**',
      'src/common/events/**',
      'src/migrations/**',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.object.name='em'][callee.property.name=/^(find|findBy|findOne|findOneBy|findOneOrFail|exists|count|insert|update|delete|upsert|save|remove|increment|createQueryBuilder|query)$/]",
          message:
            'Database access belongs in a repository of the module that owns the table (*.reader.ts, *.writer.ts, *.store.ts).',
        },
        {
          selector: "CallExpression[callee.object.property.name='db'][callee.property.name=/^(query|insert)$/]",
          message:
            'Database access belongs in a repository of the module that owns the table (*.reader.ts, *.writer.ts, *.store.ts).',
        },
      ],
    },
  },
  {
    // Type-aware: a promise nobody awaits or catches, or one handed where nothing waits for it,
    // loses its errors (an unhandled rejection ends the process).
    files: ['src/**/*.ts', 'test/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error', '@typescript-eslint/no-misused-promises': 'error' },
  },
  {
    // Tests and benchmarks read untyped JSON from the wire.
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The web app (web/): React's rules of hooks, browser globals.
    files: ['web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
