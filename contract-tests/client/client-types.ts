/**
 * Type-level tests of the generated client, checked by `npm run typecheck` (never run): correct use
 * compiles, and each misuse is a compile error (`@ts-expect-error` fails the check when it is not).
 */
import { createQueryClient } from '../../generated/client.ts';

const client = createQueryClient({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'wsdq_test_key' });

export async function correctUseCompiles(): Promise<void> {
  const scrape = await client.GET('/web/scrape', {
    params: { query: { url: 'https://example.com', formats: 'markdown,links', proxy: 'basic', timeout: 10_000 } },
    headers: { 'Idempotency-Key': 'retry-1', 'Cache-Control': 'no-cache' },
  });
  if (scrape.data) {
    const markdown: string | undefined = scrape.data.data.markdown;
    const remaining: number | null = scrape.data.credits_remaining;
    void markdown;
    void remaining;
  }
  if (scrape.error) {
    const code: string = scrape.error.error.code;
    void code;
  }
  const crawl = await client.POST('/web/crawl', { body: { url: 'https://example.com', limit: 10 } });
  const jobId = crawl.data?.data.job.id ?? 'job_01JD4Q9B2C3D4E5F6G7H8J9K0M';
  await client.GET('/web/jobs/{job_id}', { params: { path: { job_id: jobId } } });
  await client.PATCH('/web/monitors/{monitor_id}', { params: { path: { monitor_id: 'mon_1' } }, body: { status: 'paused' } });
  await client.GET('/finance/history', { params: { query: { symbol: 'AAPL', interval: '1wk' } } });
}

export async function misuseDoesNotCompile(): Promise<void> {
  // @ts-expect-error a required parameter (url) is missing
  await client.GET('/web/scrape', { params: { query: {} } });

  // @ts-expect-error a parameter of the wrong type (timeout is an integer)
  await client.GET('/web/scrape', { params: { query: { url: 'https://example.com', timeout: '30s' } } });

  // @ts-expect-error an unknown path
  await client.GET('/web/scrapes', {});

  // @ts-expect-error a value outside the enum of proxy
  await client.GET('/web/scrape', { params: { query: { url: 'https://example.com', proxy: 'fast' } } });

  // @ts-expect-error a body without its required field (url)
  await client.POST('/web/crawl', { body: { limit: 10 } });

  // @ts-expect-error a method the path does not have
  await client.POST('/web/scrape', {});

  // @ts-expect-error a path parameter is missing
  await client.GET('/web/jobs/{job_id}', { params: { path: {} } });

  // @ts-expect-error a monitor status outside active | paused
  await client.PATCH('/web/monitors/{monitor_id}', { params: { path: { monitor_id: 'mon_1' } }, body: { status: 'stopped' } });
}
