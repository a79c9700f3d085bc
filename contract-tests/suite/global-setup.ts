/** Starts every selected target before the suite and stops them after it: nothing is left running. */
import type { TestProject } from 'vitest/node';
import { selectedTargets, startTarget, type RunningTarget, type TargetName } from './targets.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    targets: { name: TargetName; baseUrl: string; apiKey: string }[];
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const running: RunningTarget[] = await Promise.all(selectedTargets().map(startTarget));
  project.provide('targets', running.map(({ name, baseUrl, apiKey }) => ({ name, baseUrl, apiKey })));
  return async () => {
    await Promise.all(running.map((target) => target.stop()));
  };
}
