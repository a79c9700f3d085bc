/**
 * The gate's classification of real edits of this contract: each case copies openapi/, edits it,
 * bundles it with Redocly's bundler in this process as the gate does (scripts/contract-bundle.ts),
 * and compares it with the unedited bundle. The changes listed are all the gate reports (operation,
 * kind, place, breaking or not), so a case also shows that nothing else is reported.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { copyContract, type ContractEdit } from '../../contract-tests/document/contract-copy.ts';
import { bundleContractInProcess } from '../contract-bundle.ts';
import { projectRoot } from '../paths.ts';
import { contractChanges } from './gate.ts';

const scrape = 'paths/web_scrape.yaml';
const crawl = 'components/schemas/CrawlRequest.yaml';
const metrics = 'components/schemas/MicroblogMetrics.yaml';
const monitor = 'paths/web_monitors_{monitor_id}.yaml';

/** An edit that deletes `file` from `marker` to its end (the last operation of a path file). */
function deleteFrom(file: string, marker: string): ContractEdit {
  const text = readFileSync(join(projectRoot, 'openapi', file), 'utf8');
  return { file, from: text.slice(text.indexOf(marker)), to: '' };
}

const queryParameter = (name: string, required: boolean) =>
  `    - name: ${name}\n      in: query\n      required: ${required}\n      description: A new parameter.\n      schema:\n        type: string\n        maxLength: 8\n`;

const deprecatedProxy: ContractEdit = { file: 'components/parameters/ProxyQuery.yaml', from: 'required: false\n', to: "required: false\ndeprecated: true\nx-sunset: '2027-06-01'\n" };

interface Case {
  readonly name: string;
  readonly base?: readonly ContractEdit[];
  readonly head: readonly ContractEdit[];
  /** `operationId kind at breaking|additive`, sorted. */
  readonly reports: readonly string[];
}

const cases: readonly Case[] = [
  {
    name: 'a removed response field is breaking',
    head: [
      { file: metrics, from: 'likes, bookmarks, views]', to: 'likes, views]' },
      { file: metrics, from: "  bookmarks:\n    type: [integer, 'null']\n    format: int64\n    minimum: 0\n    description: Number of bookmarks, or `null` when the upstream does not provide it.\n    examples: [611]\n", to: '' },
    ],
    reports: ['getMicroblogPost response-field-removed 200 data.post.metrics.bookmarks breaking'],
  },
  {
    name: 'an added response field is additive',
    head: [
      { file: metrics, from: 'likes, bookmarks, views]', to: 'likes, bookmarks, views, shares]' },
      { file: metrics, from: '  views:\n', to: "  shares:\n    type: [integer, 'null']\n    description: Shares.\n  views:\n" },
    ],
    reports: ['getMicroblogPost response-field-added 200 data.post.metrics.shares additive'],
  },
  {
    name: 'a response field made optional is breaking',
    head: [{ file: metrics, from: 'likes, bookmarks, views]', to: 'likes, bookmarks]' }],
    reports: ['getMicroblogPost response-field-optional 200 data.post.metrics.views breaking'],
  },
  {
    name: 'a removed status is breaking',
    head: [{ file: scrape, from: "    '503':\n      $ref: ../components/responses/ServiceUnavailable.yaml\n", to: '' }],
    reports: ['scrapeWebPage response-status-removed 503 breaking'],
  },
  {
    name: 'a new required query parameter is breaking',
    head: [{ file: scrape, from: '    - name: mobile\n', to: queryParameter('region', true) + '    - name: mobile\n' }],
    reports: ['scrapeWebPage parameter-added query.region breaking'],
  },
  {
    name: 'a new optional query parameter is additive',
    head: [{ file: scrape, from: '    - name: mobile\n', to: queryParameter('region', false) + '    - name: mobile\n' }],
    reports: ['scrapeWebPage parameter-added query.region additive'],
  },
  {
    name: 'an optional parameter made required is breaking',
    head: [{ file: scrape, from: '    - name: mobile\n      in: query\n      required: false', to: '    - name: mobile\n      in: query\n      required: true' }],
    reports: ['scrapeWebPage parameter-required query.mobile breaking'],
  },
  {
    name: 'a removed optional parameter is breaking (the server refuses unknown parameters)',
    head: [{ file: scrape, from: '    - name: mobile\n      in: query\n      required: false\n      description: Fetch as a mobile device (mobile user agent and viewport). Default `false`.\n      schema:\n        type: boolean\n        default: false\n', to: '' }],
    reports: ['scrapeWebPage parameter-removed query.mobile breaking'],
  },
  {
    name: 'a new required request field is breaking',
    head: [{ file: crawl, from: 'required: [url]', to: 'required: [url, goal]' }],
    reports: ['crawlWebsite request-field-required body.goal breaking'],
  },
  {
    name: 'a new request field that is required at once is breaking',
    head: [
      { file: crawl, from: 'required: [url]', to: 'required: [url, priority]' },
      { file: crawl, from: 'properties:\n  url:\n', to: 'properties:\n  priority:\n    type: integer\n    description: Priority.\n  url:\n' },
    ],
    reports: ['crawlWebsite request-field-added body.priority breaking'],
  },
  {
    name: 'a new optional request field is additive',
    head: [{ file: crawl, from: 'properties:\n  url:\n', to: 'properties:\n  priority:\n    type: integer\n    description: Priority.\n  url:\n' }],
    reports: ['crawlWebsite request-field-added body.priority additive'],
  },
  {
    name: 'a field removed from a closed request body is breaking (corrects the library)',
    head: [{ file: crawl, from: '  goal:\n    type: string\n', to: '  objective:\n    type: string\n' }],
    reports: ['crawlWebsite request-field-added body.objective additive', 'crawlWebsite request-field-removed body.goal breaking'],
  },
  {
    name: 'a narrowed request enum is breaking wherever the enum is used',
    head: [{ file: 'components/schemas/ProxyMode.yaml', from: 'enum: [basic, auto, enhanced]', to: 'enum: [basic, auto]' }],
    reports: [
      'batchScrapeWebPages request-field-enum-value-removed body.proxy breaking',
      'extractWebData parameter-enum-value-removed query.proxy breaking',
      'scrapeWebPage parameter-enum-value-removed query.proxy breaking',
    ],
  },
  {
    name: 'a widened request enum is additive',
    head: [{ file: 'components/schemas/ProxyMode.yaml', from: 'enum: [basic, auto, enhanced]', to: 'enum: [basic, auto, enhanced, stealth]' }],
    reports: [
      'batchScrapeWebPages request-field-enum-value-added body.proxy additive',
      'extractWebData parameter-enum-value-added query.proxy additive',
      'scrapeWebPage parameter-enum-value-added query.proxy additive',
    ],
  },
  {
    name: 'a widened response enum is additive (the policy: clients accept new values; corrects the library)',
    head: [{ file: 'components/schemas/MonitorMode.yaml', from: 'enum: [scrape, search]', to: 'enum: [scrape, search, feed]' }],
    reports: [
      'createMonitor request-field-enum-value-added body.mode additive',
      'createMonitor response-field-enum-value-added 200 data.monitor.mode additive',
      'deleteMonitor response-field-enum-value-added 200 data.monitor.mode additive',
      'getMonitor response-field-enum-value-added 200 data.monitor.mode additive',
      'listMonitors response-field-enum-value-added 200 data.monitors[].mode additive',
      'receiveMonitorEvent response-field-enum-value-added payload data.monitor.mode additive',
      'updateMonitor response-field-enum-value-added 200 data.monitor.mode additive',
    ],
  },
  {
    name: 'a changed response type in a type array is breaking (corrects the library)',
    head: [{ file: metrics, from: "type: [integer, 'null']", to: "type: [string, 'null']" }],
    reports: ['getMicroblogPost response-field-changed 200 data.post.metrics.replies breaking'],
  },
  {
    name: 'a response type array narrowed to drop null is additive',
    head: [{ file: metrics, from: "type: [integer, 'null']", to: 'type: integer' }],
    reports: ['getMicroblogPost response-field-changed 200 data.post.metrics.replies additive'],
  },
  {
    name: 'a changed request field type is breaking',
    head: [{ file: crawl, from: '  limit:\n    type: integer\n', to: "  limit:\n    type: string\n" }],
    reports: ['crawlWebsite request-field-changed body.limit breaking'],
  },
  {
    name: 'a request type array widened to accept null is additive',
    head: [{ file: crawl, from: '  limit:\n    type: integer\n', to: "  limit:\n    type: [integer, 'null']\n" }],
    reports: ['crawlWebsite request-field-changed body.limit additive'],
  },
  {
    name: 'null dropped from a request anyOf is breaking',
    head: [{ file: 'components/schemas/MonitorUpdateRequest.yaml', from: "    anyOf:\n      - $ref: ./WebhookUrl.yaml\n      - type: 'null'\n", to: '    $ref: ./WebhookUrl.yaml\n' }],
    reports: ['updateMonitor request-field-changed body.webhook_url breaking'],
  },
  {
    name: 'a changed response const is breaking (corrects the library)',
    head: [{ file: 'components/schemas/ScrapeWebPageResponse.yaml', from: 'const: /web/scrape', to: 'const: /web/scrape-page' }],
    reports: ['scrapeWebPage response-field-changed 200 endpoint breaking'],
  },
  {
    name: 'a tightened maxLength of a request field is breaking',
    head: [{ file: crawl, from: 'maxLength: 1000', to: 'maxLength: 500' }],
    reports: ['crawlWebsite request-field-changed body.goal breaking'],
  },
  {
    name: 'a relaxed maxLength of a request field is additive',
    head: [{ file: crawl, from: 'maxLength: 1000', to: 'maxLength: 2000' }],
    reports: ['crawlWebsite request-field-changed body.goal additive'],
  },
  {
    name: 'a tightened maximum of a request field is breaking',
    head: [{ file: crawl, from: 'maximum: 10000', to: 'maximum: 1000' }],
    reports: ['crawlWebsite request-field-changed body.limit breaking'],
  },
  {
    name: 'a removed response header is breaking',
    head: [{ file: scrape, from: '        Idempotent-Replayed:\n          $ref: ../components/headers/IdempotentReplayed.yaml\n', to: '' }],
    reports: ['scrapeWebPage response-header-removed 200 Idempotent-Replayed breaking'],
  },
  {
    name: 'a new response header is additive',
    head: [{ file: scrape, from: '        Idempotent-Replayed:\n', to: '        X-Extra:\n          description: Extra.\n          schema:\n            type: string\n        Idempotent-Replayed:\n' }],
    reports: ['scrapeWebPage response-header-added 200 X-Extra additive'],
  },
  {
    name: 'a removed operation is breaking',
    head: [deleteFrom(monitor, 'delete:\n')],
    reports: ['deleteMonitor operation-removed  breaking'],
  },
  {
    name: 'a removed response field that the base deprecated carries its x-sunset date to the policy',
    base: [{ file: metrics, from: '  views:\n', to: "  views:\n    deprecated: true\n    x-sunset: '2027-06-01'\n" }],
    head: [
      { file: metrics, from: 'likes, bookmarks, views]', to: 'likes, bookmarks]' },
      { file: metrics, from: "  views:\n    type: [integer, 'null']\n", to: "  x-views:\n    type: [integer, 'null']\n" },
    ],
    reports: ['getMicroblogPost response-field-removed 200 data.post.metrics.views breaking deprecated until 2027-06-01', 'getMicroblogPost response-field-added 200 data.post.metrics.x-views additive'],
  },
  {
    name: 'a removed parameter that the base deprecated carries its x-sunset date to the policy',
    base: [deprecatedProxy],
    head: [deprecatedProxy, { file: scrape, from: '    - $ref: ../components/parameters/ProxyQuery.yaml\n', to: '' }],
    reports: ['scrapeWebPage parameter-removed query.proxy breaking deprecated until 2027-06-01'],
  },
  {
    name: 'a new operation is additive',
    head: [{ file: 'openapi.yaml', from: 'paths:\n', to: "paths:\n  /web/ping:\n    get:\n      operationId: pingWeb\n      responses:\n        '200':\n          description: Pong.\n" }],
    reports: ['pingWeb operation-added  additive'],
  },
  {
    name: 'a deprecated operation is additive',
    head: [{ file: monitor, from: 'delete:\n  operationId: deleteMonitor\n', to: "delete:\n  operationId: deleteMonitor\n  deprecated: true\n  x-sunset: '2027-06-01'\n" }],
    reports: ['deleteMonitor operation-deprecated  additive'],
  },
  {
    name: 'a field removed from a webhook payload is breaking for its receivers',
    head: [
      { file: 'components/schemas/JobEvent.yaml', from: 'required: [type, timestamp, data]', to: 'required: [type, data]' },
      { file: 'components/schemas/JobEvent.yaml', from: '  timestamp:\n    type: string\n    format: date-time\n', to: '  occurred_at:\n    type: string\n    format: date-time\n' },
    ],
    reports: [
      'receiveBatchScrapeEvent response-field-added payload occurred_at additive',
      'receiveBatchScrapeEvent response-field-removed payload timestamp breaking',
      'receiveCrawlEvent response-field-added payload occurred_at additive',
      'receiveCrawlEvent response-field-removed payload timestamp breaking',
    ],
  },
];

describe('the classification of real edits of the contract', () => {
  let work: string;
  let unedited: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'contract-diff-cases-'));
    unedited = await bundleContractInProcess(join(projectRoot, 'openapi', 'openapi.yaml'));
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  async function bundleOf(edits: readonly ContractEdit[] | undefined, name: string): Promise<string> {
    if (!edits) return unedited;
    const copy = await copyContract(edits);
    try {
      return await bundleContractInProcess(copy.root);
    } finally {
      await copy.remove();
    }
  }

  // Each case bundles copies of its own; the copies' file reads and writes overlap.
  it.concurrent.for(cases.map((testCase, index) => ({ ...testCase, index })))('$name', async ({ base, head, reports, index }, { expect }) => {
    const [baseBundle, headBundle] = await Promise.all([bundleOf(base, `base-${index}`), bundleOf(head, `head-${index}`)]);
    const reported = contractChanges(baseBundle, headBundle).map(
      (change) =>
        `${change.operation.operationId} ${change.kind} ${change.at} ${change.breaking ? 'breaking' : 'additive'}` +
        (change.deprecatedInBase ? ` deprecated until ${change.deprecatedInBase.sunset}` : ''),
    );
    expect([...new Set(reported)].sort()).toEqual([...reports].sort());
  });
});
