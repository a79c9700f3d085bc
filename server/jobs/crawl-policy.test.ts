/** Which links a crawl follows: host, folder, include and exclude paths, robots.txt, depth. */
import { describe, expect, it } from 'vitest';
import { crawlPolicy } from './crawl-policy.ts';

const allowAll = { isAllowed: () => undefined };
const refusePrivate = { isAllowed: (url: string) => !new URL(url).pathname.startsWith('/docs/private/') };
const start = { url: 'https://example.com/docs/', max_depth: 2 };

describe('the crawl policy', () => {
  it.each([
    { link: 'https://example.com/docs/a', request: start, depth: 0, follows: true },
    { link: 'https://example.com/docs/a', request: start, depth: 2, follows: false },
    { link: 'https://example.com/blog/post', request: start, depth: 0, follows: false },
    { link: 'https://example.com/blog/post', request: { ...start, allow_backward_links: true }, depth: 0, follows: true },
    { link: 'https://other.example/x', request: start, depth: 0, follows: false },
    { link: 'https://other.example/x', request: { ...start, allow_external_links: true }, depth: 0, follows: true },
    { link: 'https://example.com/docs/a', request: { ...start, include_paths: '^/docs/b' }, depth: 0, follows: false },
    { link: 'https://example.com/docs/b/1', request: { ...start, include_paths: '^/docs/b' }, depth: 0, follows: true },
    { link: 'https://example.com/docs/a/deep', request: { ...start, exclude_paths: '/b$,deep' }, depth: 0, follows: false },
    { link: 'https://example.com/docs/private/secret', request: start, depth: 0, follows: false, robots: refusePrivate },
  ])('$link from depth $depth: $follows', ({ link, request, depth, follows, robots }) => {
    expect(crawlPolicy(request, robots ?? allowAll).follows(link, depth)).toBe(follows);
  });

  it('takes limit and max_depth from the request, 100 and 3 when absent', () => {
    expect(crawlPolicy({ url: 'https://example.com/' }, allowAll)).toMatchObject({ limit: 100, maxDepth: 3 });
    expect(crawlPolicy({ url: 'https://example.com/', limit: 7, max_depth: 1 }, allowAll)).toMatchObject({ limit: 7, maxDepth: 1 });
  });
});
