/**
 * verity's import boundaries, checked on resolved paths (`npm run lint:boundaries`, part of `npm run lint`).
 * Type-only imports (`import type`) are free everywhere: they vanish at compile time.
 *
 * The workflow sandbox: `workflows/`, `src/shared/`, each method's `src/methods/<m>/sandbox/` (its
 * workflows and the pure logic they run) and the registry's runner table (`src/methods/registry.workflow.ts`) run inside
 * Temporal's deterministic sandbox (bundled into the workflow isolate), so they may import values only
 * from each other and from @temporalio/workflow and @temporalio/common — no Node built-ins, no other
 * package, no node-side code.
 */
const METHOD_WORKFLOW_FILES = 'src/methods/([^/]+/sandbox/|.*\\.workflow\\.ts$)';
const SANDBOX = `^(workflows/|src/shared/|${METHOD_WORKFLOW_FILES})`;
const valueImport = { dependencyTypesNot: ['type-only'] };

module.exports = {
  forbidden: [
    {
      name: 'sandbox-no-node-builtins',
      comment: 'Workflow-sandbox code (workflows/, src/shared/, src/methods/<m>/sandbox/, src/methods/…/<name>.workflow.ts) cannot use Node built-ins.',
      severity: 'error',
      from: { path: SANDBOX },
      to: { dependencyTypes: ['core'], ...valueImport },
    },
    {
      name: 'sandbox-no-packages',
      comment: 'Workflow-sandbox code may import values only from @temporalio/workflow and @temporalio/common.',
      severity: 'error',
      from: { path: SANDBOX },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'], pathNot: '(^|/)node_modules/@temporalio/(workflow|common)/', ...valueImport },
    },
    {
      name: 'sandbox-no-node-side-code',
      comment: 'Workflow-sandbox code may import values only from workflows/, src/shared/, src/methods/<m>/sandbox/ and src/methods/…/<name>.workflow.ts.',
      severity: 'error',
      from: { path: SANDBOX },
      to: { dependencyTypes: ['local'], path: `^(?!workflows/|src/shared/|${METHOD_WORKFLOW_FILES})`, ...valueImport },
    },
    {
      name: 'src-no-upward-imports',
      comment:
        'Product code in src/ never imports values from eval/, test/, workflows/ or activities/ (the worker registers activities by factory, see src/worker; a method\'s workflow files are workflow code).',
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/worker/|^${METHOD_WORKFLOW_FILES}` },
      to: { path: '^(eval|test|workflows|activities)/', ...valueImport },
    },
    {
      name: 'shared-knows-no-method-registry',
      comment:
        'src/shared/ is below the methods: it never imports the method registry or a method\'s definition, not even a type (methods add their settings to MethodSettingsByName by declaration merging; hand anything else down).',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/methods/(registry(\\.workflow)?\\.ts$|[^/]+/index\\.ts$)' },
    },
    {
      name: 'no-app-logic-in-cli',
      comment: 'App logic lives in src/, not in CLI command files: only src/cli/ imports src/cli/.',
      severity: 'error',
      from: { path: '^(src/(?!cli/)|activities/|workflows/)' },
      to: { path: '^src/cli/', ...valueImport },
    },
    {
      name: 'eval-runs-the-cli-whole',
      comment: 'Benches and the chaos proof may run the CLI (src/cli/main.ts) as a user would, never reach into its command files; they show their own progress with the CLI\'s progress helpers (src/cli/progress.ts, and src/cli/ingest-progress.ts for a corpus ingest).',
      severity: 'error',
      from: { path: '^eval/' },
      to: { path: '^src/cli/(?!main\\.ts$|progress\\.ts$|ingest-progress\\.ts$)', ...valueImport },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|\\.verity|coverage|reports)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
