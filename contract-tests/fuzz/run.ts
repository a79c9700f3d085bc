/**
 * A fuzzing run: for each operation, valid requests and requests made invalid by one mutation,
 * each answer checked (checks.ts), jobs and monitors followed across calls (readable once
 * created, 404 once deleted, lists paged with the cursor they issue). A failing request is shrunk
 * by fast-check to a minimal one, sent again and reported with its `curl` line. The same seed
 * gives the same requests.
 */
import fc from 'fast-check';
import type { OperationId } from '../../generated/operations.ts';
import { CHECK_NAMES, checkExchange, type CheckFailure, type CheckName, type Exchange } from './checks.ts';
import { invalidRequests } from './mutations.ts';
import { fuzzOperations, type FuzzOperation } from './operations.ts';
import { CREATED_ID, curlLine, type FuzzRequest } from './request.ts';
import { send, type SentAnswer } from './send.ts';
import type { FuzzTarget } from './targets.ts';
import { validRequests } from './valid-requests.ts';

export type Intent = 'valid' | 'invalid';

export interface FuzzOptions {
  target: FuzzTarget;
  /** About how many requests to send in all (follow-up calls come on top). */
  requests: number;
  seed: number;
  /** Only these operations; all when absent. */
  operations?: readonly OperationId[];
  /** Receives a line per operation and intent as the run goes. */
  progress?: (line: string) => void;
}

export interface FuzzFailure {
  operationId: OperationId;
  intent: Intent;
  failures: CheckFailure[];
  /** The shrunk request as sent (ids of created resources filled in). */
  request: FuzzRequest;
  status: number | undefined;
  curl: string;
  /** The calls that made what the request addresses, as `curl` lines, when it addresses a created job or monitor. */
  setup: string[];
}

export interface FuzzReport {
  target: FuzzTarget['kind'];
  seed: number;
  requests: number;
  requestsPerOperation: Record<string, number>;
  failuresPerCheck: Record<CheckName, number>;
  failures: FuzzFailure[];
}

interface Outcome {
  failures: CheckFailure[];
  sent: FuzzRequest;
  status: number | undefined;
  setup: FuzzRequest[];
}

const JOB_SUBMISSIONS: OperationId[] = ['crawlWebsite', 'batchScrapeWebPages', 'runWebAgent'];

function dataOf(answer: SentAnswer): Record<string, any> {
  const body = answer.body as Record<string, any> | undefined;
  return body && typeof body === 'object' && body.data && typeof body.data === 'object' ? body.data : {};
}

function remainingOf(answer: SentAnswer): number | undefined {
  const text = answer.headers.get('x-credits-remaining');
  return text !== null && /^\d+$/.test(text) ? Number(text) : undefined;
}

/** Requests the session makes itself: to create what a request addresses, and to follow up. */
function plain(operationId: OperationId, method: string, path: string, pathParams: Record<string, string> = {}, body?: unknown, query: [string, string][] = []): FuzzRequest {
  return { operationId, method, path, pathParams, query, headers: {}, key: 'valid', ...(body === undefined ? {} : { body }) };
}

/** One target's calls, in order: counts them, follows the key's balance, makes and follows resources. */
class Session {
  readonly counts = new Map<string, number>();
  private balance: number | undefined;
  private idempotencySerial = 0;

  private readonly target: FuzzTarget;

  constructor(target: FuzzTarget) {
    this.target = target;
  }

  private async call(request: FuzzRequest, intent: Intent, addressesCreated: boolean): Promise<{ exchange?: Exchange; failures: CheckFailure[] }> {
    const balanceBefore = this.target.keepsAccounts && request.key === 'valid' ? this.balance : undefined;
    this.counts.set(request.operationId, (this.counts.get(request.operationId) ?? 0) + 1);
    let answer: SentAnswer;
    try {
      answer = await send(this.target.origin, request, this.target);
    } catch (error) {
      return { failures: [{ check: 'not_a_server_error', message: `no answer: ${(error as Error).message}` }] };
    }
    if (request.key === 'valid') this.balance = remainingOf(answer) ?? this.balance;
    const exchange: Exchange = { request, intent, answer, balanceBefore, addressesCreated };
    return { exchange, failures: checkExchange(exchange) };
  }

  /** Creates the job or monitor `request` addresses, returning its id, the creating request and what failed. */
  private async create(request: FuzzRequest): Promise<{ id: string | undefined; creation: FuzzRequest; failures: CheckFailure[] }> {
    const creation = request.path.startsWith('/web/jobs')
      ? plain('crawlWebsite', 'POST', '/web/crawl', {}, { url: 'https://example.com/docs/', limit: 2 })
      : plain('createMonitor', 'POST', '/web/monitors', {}, (request.body as Record<string, unknown> | undefined)?.query !== undefined
        ? { url: 'https://example.com/pricing', mode: 'search', query: 'fuzzing the contract' }
        : { url: 'https://example.com/pricing', cadence_minutes: 60 });
    const { exchange, failures } = await this.call(creation, 'valid', false);
    const data = exchange ? dataOf(exchange.answer) : {};
    return { id: data.job?.id ?? data.monitor?.id, creation, failures };
  }

  /** Sends `request` (creating what it addresses first), checks its answer and its follow-ups. */
  async exchange(generated: FuzzRequest, intent: Intent): Promise<Outcome> {
    let request = generated;
    const failures: CheckFailure[] = [];
    const setup: FuzzRequest[] = [];
    const createdParameter = Object.entries(request.pathParams).find(([, value]) => value === CREATED_ID);
    if (createdParameter) {
      const created = await this.create(request);
      failures.push(...created.failures);
      setup.push(created.creation);
      if (created.id === undefined) return { failures, sent: request, status: undefined, setup };
      request = { ...request, pathParams: { ...request.pathParams, [createdParameter[0]]: created.id } };
    }
    // A retried request must not meet its own Idempotency-Key again (shrinking sends variants of one request).
    if (intent === 'valid' && request.headers['Idempotency-Key'] !== undefined) {
      request = { ...request, headers: { ...request.headers, 'Idempotency-Key': `${request.headers['Idempotency-Key'].slice(0, 240)}.${++this.idempotencySerial}` } };
    }
    const { exchange, failures: answerFailures } = await this.call(request, intent, createdParameter !== undefined);
    failures.push(...answerFailures);
    if (exchange && intent === 'valid' && request.key === 'valid' && exchange.answer.status === 200) failures.push(...await this.followUp(request, exchange.answer));
    return { failures, sent: request, status: exchange?.answer.status, setup };
  }

  /** What a successful valid call implies for the next ones. */
  private async followUp(request: FuzzRequest, answer: SentAnswer): Promise<CheckFailure[]> {
    const data = dataOf(answer);
    const failures: CheckFailure[] = [];
    const expectStatus = async (check: CheckName, follow: FuzzRequest, status: number, why: string) => {
      const { exchange, failures: followFailures } = await this.call(follow, 'valid', true);
      failures.push(...followFailures.filter((failure) => failure.check !== 'positive_data_acceptance'));
      if (exchange && exchange.answer.status !== status) failures.push({ check, message: `${why}, ${follow.method} ${follow.path.replace(/\{\w+\}/, Object.values(follow.pathParams)[0] ?? '')} answered ${exchange.answer.status}, not ${status}` });
    };
    if (JOB_SUBMISSIONS.includes(request.operationId) && typeof data.job?.id === 'string') {
      await expectStatus('ensure_resource_availability', plain('getJob', 'GET', '/web/jobs/{job_id}', { job_id: data.job.id }), 200, 'the job was just submitted');
    }
    if (request.operationId === 'createMonitor' && typeof data.monitor?.id === 'string') {
      await expectStatus('ensure_resource_availability', plain('getMonitor', 'GET', '/web/monitors/{monitor_id}', { monitor_id: data.monitor.id }), 200, 'the monitor was just created');
    }
    if (this.target.keepsState && request.operationId === 'deleteJob') {
      // A job still going is cancelled and kept (`deleted: false`); deleting it again removes it.
      if (data.deleted === false) await expectStatus('use_after_free', plain('deleteJob', 'DELETE', '/web/jobs/{job_id}', request.pathParams), 200, 'the job was cancelled');
      await expectStatus('use_after_free', plain('getJob', 'GET', '/web/jobs/{job_id}', request.pathParams), 404, 'the job was deleted');
    }
    if (this.target.keepsState && request.operationId === 'deleteMonitor') {
      await expectStatus('use_after_free', plain('getMonitor', 'GET', '/web/monitors/{monitor_id}', request.pathParams), 404, 'the monitor was deleted');
    }
    if (typeof data.next_cursor === 'string') {
      const { 'Idempotency-Key': _key, ...headers } = request.headers;
      const next = { ...request, headers, query: [...request.query.filter(([name]) => name !== 'cursor'), ['cursor', data.next_cursor]] as [string, string][] };
      const { failures: pageFailures } = await this.call(next, 'valid', true);
      failures.push(...pageFailures);
    }
    return failures;
  }
}

function seedFor(seed: number, operationId: string, intent: Intent): number {
  let hash = 2166136261;
  for (const character of `${operationId}:${intent}`) hash = Math.imul(hash ^ character.charCodeAt(0), 16777619);
  return (seed ^ hash) | 0;
}

function arbitraryOf(operation: FuzzOperation, intent: Intent, target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  return intent === 'valid' ? validRequests(operation) : invalidRequests(operation, target.keyUses);
}

/** Runs the fuzzer against `target` and reports every failure, shrunk. */
export async function fuzz(options: FuzzOptions): Promise<FuzzReport> {
  const { target, seed } = options;
  const operations = options.operations ? fuzzOperations.filter((operation) => options.operations!.includes(operation.operationId)) : fuzzOperations;
  const session = new Session(target);
  const runs = Math.max(1, Math.ceil(options.requests / (operations.length * 2)));
  const failures: FuzzFailure[] = [];
  for (const operation of operations) {
    for (const intent of ['valid', 'invalid'] as const) {
      let lastFailing: Outcome | undefined;
      const property = fc.asyncProperty(arbitraryOf(operation, intent, target), async (request) => {
        const outcome = await session.exchange(request, intent);
        if (outcome.failures.length > 0) lastFailing = outcome;
        return outcome.failures.length === 0;
      });
      const details = await fc.check(property, { seed: seedFor(seed, operation.operationId, intent), numRuns: runs });
      if (details.failed && details.counterexample) {
        const replayed = await session.exchange(details.counterexample[0], intent);
        // A failure that depends on the target's state may not come back when the minimal request is sent again.
        const outcome = replayed.failures.length > 0 || !lastFailing ? replayed : lastFailing;
        failures.push({
          operationId: operation.operationId, intent, failures: outcome.failures, request: outcome.sent, status: outcome.status,
          curl: curlLine(outcome.sent, target.origin, target.wrongKey), setup: outcome.setup.map((request) => curlLine(request, target.origin, target.wrongKey)),
        });
      }
      options.progress?.(`${operation.operationId} ${intent}: ${details.failed ? `failed after ${details.numRuns} runs, shrunk in ${details.numShrinks} steps` : `${details.numRuns} runs passed`}`);
    }
  }
  const failuresPerCheck = Object.fromEntries(CHECK_NAMES.map((name) => [name, failures.filter((failure) => failure.failures.some((one) => one.check === name)).length])) as Record<CheckName, number>;
  const requestsPerOperation = Object.fromEntries(fuzzOperations.map((operation) => [operation.operationId, session.counts.get(operation.operationId) ?? 0]).filter(([, count]) => count !== 0));
  return { target: target.kind, seed, requests: [...session.counts.values()].reduce((sum, count) => sum + count, 0), requestsPerOperation, failuresPerCheck, failures };
}
