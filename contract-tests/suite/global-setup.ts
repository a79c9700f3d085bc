/** Starts every selected target before the suite and stops them after it: nothing is left running. */
import type { TestProject } from 'vitest/node';
import { selectedTargets, startTarget, type RunningTarget } from './targets.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    targets: Omit<RunningTarget, 'stop'>[];
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const running: RunningTarget[] = await Promise.all(selectedTargets().map(startTarget));
  project.provide('targets', running.map(({ stop: _stop, ...target }) => target));
  return async () => {
    await Promise.all(running.map((target) => target.stop()));
  };
}
