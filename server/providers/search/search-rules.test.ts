import { describe, expect, it } from 'vitest';
import { queryWithSites, searchRequest } from './search-request.ts';
import { httpUrl, keptResults, publishedAt } from './search-results.ts';

describe('searchRequest', () => {
  it('reads the contract defaults (sources web, limit 5) and the typed parameters', () => {
    expect(searchRequest({ query: 'q' })).toEqual({ query: 'q', sources: ['web'], categories: [], limit: 5, country: undefined, location: undefined, timeRange: undefined, sortByDate: false, includeDomains: [], excludeDomains: [], includeContent: false });
    expect(searchRequest({ query: 'q', sources: 'news,web,news', limit: 12, country: 'de', include_domains: 'ArXiv.org', sort_by_date: true, include_content: true })).toMatchObject({ sources: ['news', 'web'], limit: 12, country: 'DE', includeDomains: ['arxiv.org'], sortByDate: true, includeContent: true });
  });
});

describe('queryWithSites', () => {
  const cases = [
    { name: 'no domains: the query as given', query: { query: 'rfc 9457' }, text: 'rfc 9457' },
    { name: 'one included domain', query: { query: 'rfc 9457', include_domains: 'ietf.org' }, text: 'rfc 9457 site:ietf.org' },
    { name: 'several included domains, OR-ed', query: { query: 'rfc 9457', include_domains: 'ietf.org,rfc-editor.org' }, text: 'rfc 9457 (site:ietf.org OR site:rfc-editor.org)' },
    { name: 'excluded domains, each negated', query: { query: 'rfc 9457', exclude_domains: 'quora.com,pinterest.com' }, text: 'rfc 9457 -site:quora.com -site:pinterest.com' },
  ];
  it.each(cases)('$name', ({ query, text }) => {
    expect(queryWithSites(searchRequest(query))).toBe(text);
  });
});

describe('publishedAt', () => {
  const cases: [unknown, string | null][] = [
    ['2026-11-04T06:45:00', '2026-11-04T06:45:00Z'],
    ['2026-11-04T06:45:00Z', '2026-11-04T06:45:00Z'],
    ['2026-11-04T08:45:00+02:00', '2026-11-04T06:45:00Z'],
    ['2026-11-04T06:45:00.250Z', '2026-11-04T06:45:00.250Z'],
    ['2026-11-04', '2026-11-04T00:00:00Z'],
    ['2 days ago', null],
    ['Nov 4, 2026', null],
    ['2026-13-45T00:00:00', null],
    [null, null],
    [1762238700, null],
  ];
  it.each(cases)('%j is %j', (value, expected) => {
    expect(publishedAt(value)).toBe(expected);
  });
});

describe('httpUrl', () => {
  const cases: [unknown, string | null][] = [
    ['https://qdrant.tech/benchmarks/', 'https://qdrant.tech/benchmarks/'],
    ['//cdn.example.com/a.jpg', 'https://cdn.example.com/a.jpg'],
    ['javascript:alert(1)', null],
    ['/relative/path', null],
    ['', null],
    [undefined, null],
  ];
  it.each(cases)('%j is %j', (value, expected) => {
    expect(httpUrl(value)).toBe(expected);
  });
});

describe('keptResults', () => {
  const found = (url: string, extra: Record<string, unknown> = {}) => ({ url, title: 't', description: 'd', publishedAt: null, imageUrl: null, ...extra });

  it('drops repeats and results on excluded hosts and their subdomains, numbering the rest from 1', () => {
    const kept = keptResults([found('https://a.example/1'), found('https://a.example/1'), found('https://www.quora.com/x'), found('https://b.example/2')], 'web', searchRequest({ query: 'q', exclude_domains: 'quora.com' }));
    expect(kept.map((result) => [result.url, result.position])).toEqual([['https://a.example/1', 1], ['https://b.example/2', 2]]);
  });

  it('categories keep GitHub hosts, research hosts and PDFs; an upstream-given category is trusted', () => {
    const request = searchRequest({ query: 'q', categories: 'research,pdf', limit: 10 });
    const kept = keptResults([found('https://github.com/a/b'), found('https://arxiv.org/abs/2401.00001'), found('https://example.com/paper.PDF'), found('https://lab.example/paper', { category: 'research' })], 'web', request);
    expect(kept.map((result) => result.url)).toEqual(['https://arxiv.org/abs/2401.00001', 'https://example.com/paper.PDF', 'https://lab.example/paper']);
  });

  it('image_url only for images; a non-http image is null', () => {
    const kept = keptResults([found('https://a.example/', { imageUrl: 'https://a.example/i.jpg' }), found('https://b.example/', { imageUrl: 'data:image/png;base64,AAAA' })], 'images', searchRequest({ query: 'q' }));
    expect(kept.map((result) => result.image_url)).toEqual(['https://a.example/i.jpg', null]);
    expect(keptResults([found('https://a.example/', { imageUrl: 'https://a.example/i.jpg' })], 'web', searchRequest({ query: 'q' }))[0]!.image_url).toBeNull();
  });
});
