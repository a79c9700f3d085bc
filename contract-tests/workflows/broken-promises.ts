/**
 * Servers that break a billing promise while looking as if they kept it, in front of a real
 * server: the workflows must catch each.
 */
import { startTamperingServer, type PassingAnswer, type TamperingServer } from '../../server/test-support/tampering-server.ts';

/**
 * Answers a repeated Idempotency-Key with the first answer (and `Idempotent-Replayed: true`) but
 * sends the call upstream again without the key, so the key is charged twice.
 */
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

/** Charges a credit (a scrape made for the caller) before passing on an extraction, which the key then cannot pay for. */
export function startChargingRefusalServer(upstreamBaseUrl: string): Promise<TamperingServer> {
  return startTamperingServer(upstreamBaseUrl, async (call, send) => {
    if (call.target.startsWith('/v1/web/extract')) await send({ ...call, target: '/v1/web/scrape?url=https%3A%2F%2Fexample.com%2Fcharged' });
    return send(call);
  });
}
