/** The development self-check of answer headers against the contract. */
import { describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.ts';
import { headerProblems } from './header-check.ts';

const scrape = operations.find((row) => row.operationId === 'scrapeWebPage')!;
const good = {
  'X-Request-Id': 'req_01JD4R2M8Q5T7V9X1Z3B5D7F9H', 'X-Credits-Used': '1', 'X-Credits-Remaining': '99', 'X-Cache': 'MISS',
  RateLimit: '"per-key";r=119;t=60', 'RateLimit-Policy': '"per-key";q=120;w=60',
};

describe('headerProblems', () => {
  it.each([
    { name: 'conforming headers', status: 200, headers: good, problems: [] },
    { name: 'a missing header', status: 200, headers: { ...good, 'X-Cache': undefined }, problems: ['header X-Cache is missing'] },
    { name: 'a value outside the enum', status: 200, headers: { ...good, 'X-Cache': 'STALE' }, problems: ['header X-Cache "STALE" must be equal to one of the allowed values'] },
    { name: 'a malformed request id', status: 200, headers: { ...good, 'X-Request-Id': 'abc' }, problems: ['header X-Request-Id "abc" must match pattern "^req_[0-9A-HJKMNP-TV-Z]{26}$"'] },
    { name: '429 without its rate-limit fields', status: 429, headers: { ...good, RateLimit: undefined, 'RateLimit-Policy': undefined }, problems: ['header Retry-After is missing', 'header RateLimit is missing', 'header RateLimit-Policy is missing'] },
    { name: 'a 200 without its rate-limit fields', status: 200, headers: { ...good, RateLimit: undefined, 'RateLimit-Policy': undefined }, problems: ['header RateLimit is missing', 'header RateLimit-Policy is missing'] },
    { name: 'a malformed RateLimit field', status: 200, headers: { ...good, RateLimit: 'r=1' }, problems: ['header RateLimit "r=1" must match pattern "^\"per-key\";r=(0|[1-9][0-9]*);t=[1-9][0-9]*$"'] },
    { name: 'a 401, which carries no rate-limit fields (no key, no policy)', status: 401, headers: { ...good, RateLimit: undefined, 'RateLimit-Policy': undefined }, problems: [] },
    { name: 'an undeclared status', status: 418, headers: good, problems: ['status 418 is not declared for scrapeWebPage'] },
  ])('reports $name', ({ status, headers, problems }) => {
    const defined = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined)) as Record<string, string>;
    expect(headerProblems(scrape, status, defined)).toEqual(problems);
  });
});
