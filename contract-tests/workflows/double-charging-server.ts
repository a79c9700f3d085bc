/**
 * A server that breaks the Idempotency-Key promise while looking as if it kept it: in front of a
 * real server, it answers a repeated key with the first answer (and `Idempotent-Replayed: true`)
 * but sends the call upstream again without the key, so the key is charged twice.
 */
import { startTamperingServer, type PassingAnswer, type TamperingServer } from '../../server/test-support/tampering-server.ts';

/** Starts it on a loopback port in front of `upstreamBaseUrl` (with `/v1`). */
export function startDoubleChargingServer(upstreamBaseUrl: string): Promise<TamperingServer> {
  const firstAnswers = new Map<string, PassingAnswer>();
  return startTamperingServer(upstreamBaseUrl, async (call, send) => {
    const key = call.headers['idempotency-key'];
    const first = key === undefined ? undefined : firstAnswers.get(key);
    if (!first) {
      const answer = await send(call);
      if (key !== undefined) firstAnswers.set(key, answer);
      return answer;
    }
    const { 'idempotency-key': _dropped, ...withoutKey } = call.headers;
    await send({ ...call, headers: withoutKey });
    const replayed = new Headers(first.headers);
    replayed.set('idempotent-replayed', 'true');
    return { ...first, headers: replayed };
  });
}
