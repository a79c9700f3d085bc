/**
 * The Arazzo workflows under openapi/workflows/ and what each needs of its target: the mock keeps
 * no state, so it runs only the workflows that need none; a server runs them all.
 */
import { join } from 'node:path';
import { projectRoot } from '../paths.ts';

export const workflowsDir = join(projectRoot, 'openapi', 'workflows');

export interface WorkflowFile {
  /** The file's name under openapi/workflows/. */
  readonly file: string;
  /** True when a workflow of the file follows state across calls (a job, a monitor, a stored answer, a balance): a server only. */
  readonly needsState: boolean;
}

export const workflowFiles: readonly WorkflowFile[] = [
  { file: 'search-then-scrape.arazzo.yaml', needsState: false },
  { file: 'crawl-lifecycle.arazzo.yaml', needsState: true },
  { file: 'monitor-lifecycle.arazzo.yaml', needsState: true },
  { file: 'idempotent-retry.arazzo.yaml', needsState: true },
  { file: 'out-of-credits.arazzo.yaml', needsState: true },
];

/** Workflows that only the steps of other workflows call (with the inputs they pass): never run on their own. */
export const calledWorkflows: readonly string[] = ['readJobPages'];

export type WorkflowTarget = 'mock' | 'server';

/** The files a target runs: every file on a server, the stateless ones on the mock. */
export function filesFor(target: WorkflowTarget): string[] {
  return workflowFiles.filter(({ needsState }) => target === 'server' || !needsState).map(({ file }) => join(workflowsDir, file));
}
