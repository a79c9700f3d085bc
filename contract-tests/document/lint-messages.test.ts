/**
 * What `npm run lint` says about a broken house rule: each message names the operation, what is
 * missing or wrong, and what is expected. One copy of the contract gets one edit per case (each in
 * its own operation or file), is linted once with the project's redocly.yaml and plugin, and every
 * problem found must be one that a case expects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintContract, type ContractProblem } from '../../scripts/contract-problems.ts';
import { copyContract, type ContractCopy, type ContractEdit } from './contract-copy.ts';

const EVERY_STATUS = 'every operation declares 200 and 400, 401, 402, 403, 404, 409, 422, 429, 500, 502, 503, 504.';
const ENVELOPE_HEADERS = 'every response declares X-Request-Id, X-Credits-Used, X-Credits-Remaining and X-Cache.';

interface Case {
  readonly name: string;
  readonly edit: ContractEdit;
  /** `file message (rule)` of each problem the edit causes, without line and column. */
  readonly expected: readonly string[];
  /** Whether the problems are reported on the edited line itself. */
  readonly onEditedLine: boolean;
}

const cases: readonly Case[] = [
  {
    name: "renaming '429' to '428' names the operation and the missing error status 429",
    edit: { file: 'paths/web_jobs_{job_id}.yaml', from: "'429':", to: "'428':" },
    expected: [
      `openapi/paths/web_jobs_{job_id}.yaml Operation getJob (GET /web/jobs/{job_id}) does not declare error status 429; ${EVERY_STATUS} (house/operation-statuses)`,
    ],
    onEditedLine: false,
  },
  {
    name: "an example's endpoint that differs from the schema's const names the example, the property and the constant",
    edit: { file: 'paths/web_jobs_{job_id}.yaml', from: 'endpoint: /web/jobs/{job_id}', to: 'endpoint: /web/jobs/{id}' },
    expected: [
      'openapi/paths/web_jobs_{job_id}.yaml Example running_crawl of the response 200 of operation getJob (GET /web/jobs/{job_id}) has endpoint "/web/jobs/{id}"; its schema fixes it with const "/web/jobs/{job_id}". (house/example-const)',
      'openapi/paths/web_jobs_{job_id}.yaml Example value must conform to the schema: `endpoint` property must be equal to constant. (no-invalid-media-type-examples)',
    ],
    onEditedLine: true,
  },
  {
    name: 'a missing x-credit-cost names the operation',
    edit: { file: 'paths/web_map.yaml', from: '  x-credit-cost: 1\n', to: '' },
    expected: [
      'openapi/paths/web_map.yaml Operation mapWebsite (GET /web/map) does not declare x-credit-cost; every operation declares its credit cost in x-credit-cost, an integer, 0 or more. (house/operation-credit-cost)',
    ],
    onEditedLine: false,
  },
  {
    name: 'an x-credit-cost that is not an integer names the value and what is expected',
    edit: { file: 'paths/finance_history.yaml', from: 'x-credit-cost: 1', to: 'x-credit-cost: one' },
    expected: [
      'openapi/paths/finance_history.yaml Operation getPriceHistory (GET /finance/history) has x-credit-cost "one"; expected an integer, 0 or more. (house/operation-credit-cost)',
    ],
    onEditedLine: true,
  },
  {
    name: 'a negative x-credit-cost-per-page names the value and what is expected',
    edit: { file: 'paths/web_crawl.yaml', from: 'x-credit-cost-per-page: 1', to: 'x-credit-cost-per-page: -1' },
    expected: [
      'openapi/paths/web_crawl.yaml Operation crawlWebsite (POST /web/crawl) has x-credit-cost-per-page -1; expected an integer, 0 or more. (house/operation-credit-cost-per-page)',
    ],
    onEditedLine: true,
  },
  {
    name: 'an unknown x-launch-status names the value and the allowed ones',
    edit: { file: 'paths/web_search.yaml', from: 'x-launch-status: beta', to: 'x-launch-status: alpha' },
    expected: [
      'openapi/paths/web_search.yaml Operation searchWeb (GET /web/search) has x-launch-status "alpha"; expected one of beta or ga. (house/operation-launch-status)',
    ],
    onEditedLine: true,
  },
  {
    name: 'a second tag names both tags and the platform expected',
    edit: { file: 'paths/web_scrape.yaml', from: 'tags: [web]', to: 'tags: [web, finance]' },
    expected: [
      'openapi/paths/web_scrape.yaml Operation scrapeWebPage (GET /web/scrape) has 2 tags (web and finance); every operation has exactly one tag, its platform: web. (house/operation-one-tag)',
    ],
    onEditedLine: true,
  },
  {
    name: 'a shared response without X-Cache names the status, the first operation using it and the missing header',
    edit: { file: 'components/responses/TooManyRequests.yaml', from: '  X-Cache:\n    $ref: ../headers/XCache.yaml\n', to: '' },
    expected: [
      `openapi/components/responses/TooManyRequests.yaml Response 429 of operation scrapeWebPage (GET /web/scrape), and of every operation that shares it, does not declare header X-Cache; ${ENVELOPE_HEADERS} (house/response-headers)`,
    ],
    onEditedLine: false,
  },
  {
    name: 'a camelCase property name is named',
    edit: { file: 'components/schemas/JobList.yaml', from: 'properties:\n', to: 'properties:\n  pageCount:\n    type: integer\n' },
    expected: ['openapi/components/schemas/JobList.yaml Property names are snake_case: "pageCount" should use snake_case. (rule/property-names-snake-case)'],
    onEditedLine: false,
  },
  {
    name: 'a camelCase query parameter name is named',
    edit: { file: 'components/parameters/Limit.yaml', from: 'name: limit', to: 'name: pageLimit' },
    expected: [
      'openapi/components/parameters/Limit.yaml Query and path parameter names are snake_case: "pageLimit" should use snake_case. (rule/parameter-names-snake-case)',
    ],
    onEditedLine: true,
  },
  {
    name: 'a deprecated operation without an x-sunset date asks for the date it may be removed',
    edit: { file: 'paths/web_monitors_{monitor_id}.yaml', from: 'delete:\n  operationId: deleteMonitor\n', to: 'delete:\n  operationId: deleteMonitor\n  deprecated: true\n' },
    expected: ['openapi/paths/web_monitors_{monitor_id}.yaml A deprecated operation gives the date it may be removed: `x-sunset: YYYY-MM-DD`, at least six months ahead. (rule/deprecated-operation-sunset)'],
    onEditedLine: false,
  },
  {
    name: 'a deprecated parameter without an x-sunset date asks for the date it may be removed',
    edit: { file: 'components/parameters/ProxyQuery.yaml', from: 'required: false\n', to: 'required: false\ndeprecated: true\n' },
    expected: ['openapi/components/parameters/ProxyQuery.yaml A deprecated parameter gives the date it may be removed: `x-sunset: YYYY-MM-DD`, at least six months ahead. (rule/deprecated-parameter-sunset)'],
    onEditedLine: false,
  },
  {
    name: 'a deprecated property without an x-sunset date asks for the date it may be removed',
    edit: { file: 'components/schemas/MicroblogMetrics.yaml', from: '  views:\n', to: '  views:\n    deprecated: true\n' },
    expected: ['openapi/components/schemas/MicroblogMetrics.yaml A deprecated schema or property gives the date it may be removed: `x-sunset: YYYY-MM-DD`, at least six months ahead. (rule/deprecated-property-sunset)'],
    onEditedLine: false,
  },
  {
    name: 'an x-sunset that is not a YYYY-MM-DD date is refused',
    edit: { file: 'paths/web_monitors_{monitor_id}.yaml', from: 'get:\n  operationId: getMonitor\n', to: "get:\n  operationId: getMonitor\n  deprecated: true\n  x-sunset: 'next spring'\n" },
    expected: ['openapi/paths/web_monitors_{monitor_id}.yaml `x-sunset` is a date, YYYY-MM-DD. (rule/operation-sunset-date)'],
    onEditedLine: false,
  },
];

function withoutPosition(problem: ContractProblem, dir: string): string {
  return `${problem.file.replace(`${dir}/`, '')} ${problem.message} (${problem.ruleId})`;
}

describe('house-rule lint messages name the operation, what is missing or wrong, and what is expected', () => {
  let copy: ContractCopy;
  let problems: ContractProblem[];

  beforeAll(async () => {
    copy = await copyContract(cases.map(({ edit }) => edit));
    problems = await lintContract(copy.root);
  });
  afterAll(() => copy?.remove());

  it.each(cases)('$name', ({ edit, expected, onEditedLine }) => {
    const found = problems.filter((problem) => expected.includes(withoutPosition(problem, copy.dir)));
    expect(found.map((problem) => withoutPosition(problem, copy.dir)).sort()).toEqual([...expected].sort());
    if (onEditedLine) for (const problem of found) expect(problem.line).toBe(copy.positionOf(edit).line);
  });

  it('finds no problem that no case expects', () => {
    const expected = cases.flatMap((testCase) => testCase.expected);
    expect(problems.map((problem) => withoutPosition(problem, copy.dir)).filter((line) => !expected.includes(line))).toEqual([]);
  });
});
