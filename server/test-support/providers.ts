/** Providers for tests: one that counts its calls, one that waits until released, one that fails. */
import { sandboxProvider } from '../providers/sandbox/index.ts';
import type { DataProvider, ProviderCall } from '../providers/types.ts';

/** Answers like the sandbox, counting how often it was asked. */
export function countingProvider(): DataProvider & { calls: number } {
  const provider = {
    name: 'counting',
    calls: 0,
    async fetch(call: ProviderCall) {
      provider.calls += 1;
      return sandboxProvider.fetch(call);
    },
  };
  return provider;
}

/** Answers like the sandbox once `release()` is called; `started` resolves when a call is waiting. */
export function gatedProvider(): { provider: DataProvider; started: Promise<void>; release(): void } {
  let release!: () => void;
  let markStarted!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  return {
    provider: {
      name: 'gated',
      async fetch(call) {
        markStarted();
        await gate;
        return sandboxProvider.fetch(call);
      },
    },
    started,
    release,
  };
}

/** Throws an unexpected error whose message must never reach a caller. */
export const explodingProvider: DataProvider = {
  name: 'exploding',
  async fetch() {
    throw new Error('boom at /srv/secret/config.ts:42 with token abc123');
  },
};
