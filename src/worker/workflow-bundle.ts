import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, Runtime, type WorkflowBundle } from '@temporalio/worker';
import { WORKFLOW_INTERCEPTORS_PATH, WORKFLOWS_PATH } from './workflow-paths';

/** A directory the processes of one code version share bundles through (a test run; a fleet started from one release). */
export const WORKFLOW_BUNDLE_CACHE_ENV = 'VERITY_WORKFLOW_BUNDLE_CACHE';

const bundles = new Map<string, Promise<WorkflowBundle>>();

/**
 * Workflow code bundled once per process and set of interceptor modules (a pilot's worker and the
 * sweep's share it). With VERITY_WORKFLOW_BUNDLE_CACHE, once per directory: bundling takes seconds
 * of CPU, and a test run starts a hundred workers and replayers. The directory is keyed by paths,
 * not content, so it must not outlive the code it was filled from.
 */
export function workflowBundleOf(workflowsPath: string = WORKFLOWS_PATH, extraInterceptorModules: string[] = []): Promise<WorkflowBundle> {
  const workflowInterceptorModules = [WORKFLOW_INTERCEPTORS_PATH, ...extraInterceptorModules];
  const key = [workflowsPath, ...workflowInterceptorModules].join('\n');
  let bundle = bundles.get(key);
  if (!bundle) {
    const directory = process.env[WORKFLOW_BUNDLE_CACHE_ENV];
    const build = async () => {
      // Logs go where the SDK's do (the runtime verity installed, or the default one).
      const { code } = await bundleWorkflowCode({ workflowsPath, workflowInterceptorModules, logger: Runtime.instance().logger });
      return code;
    };
    bundle = (directory ? readOrBuildBundle(directory, key, build) : build()).then((code) => ({ code }));
    bundle.catch(() => bundles.delete(key));
    bundles.set(key, bundle);
  }
  return bundle;
}

/** The bundle of `key` in `directory`, built and stored there by the first process that asks. */
export async function readOrBuildBundle(directory: string, key: string, build: () => Promise<string>): Promise<string> {
  const file = path.join(directory, `${createHash('sha256').update(key).digest('hex').slice(0, 16)}.js`);
  try {
    return await fs.promises.readFile(file, 'utf8');
  } catch {
    const code = await build();
    await fs.promises.mkdir(directory, { recursive: true });
    // Written whole, then renamed: a process reading at the same time sees no file or all of it.
    const partial = `${file}.${process.pid}.partial`;
    await fs.promises.writeFile(partial, code);
    await fs.promises.rename(partial, file);
    return code;
  }
}
