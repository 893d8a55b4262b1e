import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

/** The import rules of workflow-sandbox code; `relativePattern` narrows which relative imports may carry values. */
function workflowImportRules(relativePattern) {
  return {
    'no-console': 'error',
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: [
          ...nodeBuiltins.map((name) => ({ name, message: 'Node built-ins are not allowed in workflow code.' })),
          {
            name: '@temporalio/workflow',
            importNames: ['proxyLocalActivities'],
            message: 'Use proxyOrderedLocalActivities (workflows/local-activity-order.ts): concurrent local activities must resume in the order they finished, or a replay can schedule commands differently.',
          },
        ],
        patterns: [
          {
            regex: '^(?!@temporalio/(workflow|common)$|\\.{1,2}/)',
            allowTypeImports: true,
            message: 'Workflow code may import values only from @temporalio/workflow, @temporalio/common and sandbox-safe files (use `import type` for everything else).',
          },
          ...(relativePattern ? [relativePattern] : []),
        ],
      },
    ],
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.verity/**', 'coverage/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox: no Node built-ins, no third-party
    // modules except @temporalio/workflow and @temporalio/common, no zod values, no console. Types may be imported from anywhere.
    files: ['workflows/**/*.ts'],
    rules: workflowImportRules({
      regex: '^\\.\\./(?!src/shared/|src/methods/[^/]+/sandbox/|src/methods/(.+/)?[^/]+\\.workflow$)',
      allowTypeImports: true,
      message: "Workflows may import values only from sibling workflow files, src/shared, the methods' sandbox/ folders and src/methods/**/*.workflow.ts.",
    }),
  },
  {
    // A method's sandbox folder (src/methods/<m>/sandbox/: its workflows and the pure logic they run)
    // and the registry's runner table are workflow code too; their relative imports are checked on
    // resolved paths by `npm run lint:boundaries`.
    files: ['src/methods/**/*.workflow.ts', 'src/methods/*/sandbox/**/*.ts'],
    rules: workflowImportRules(),
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
