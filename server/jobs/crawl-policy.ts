/**
 * Which links a crawl follows: on the start page's host (others only with `allow_external_links`),
 * below the start page's folder (others only with `allow_backward_links`), matching
 * `include_paths` (when given) and none of `exclude_paths`, not refused by robots.txt, and not
 * deeper than `max_depth`; up to `limit` pages.
 */
import type { RobotsRules } from '../providers/types.ts';

export interface CrawlPolicy {
  limit: number;
  maxDepth: number;
  /** Whether a link found at `depth` is followed. */
  follows(link: string, depth: number): boolean;
}

function compilePatterns(text: unknown): RegExp[] {
  return String(text ?? '').split(',').filter(Boolean).map((pattern) => new RegExp(pattern));
}

/** The crawl policy of a crawl request (the job's `request`), under its site's robots.txt rules. */
export function crawlPolicy(request: Record<string, unknown>, robots: RobotsRules): CrawlPolicy {
  const start = new URL(String(request.url));
  const folder = start.pathname.replace(/[^/]*$/, '');
  const includes = compilePatterns(request.include_paths);
  const excludes = compilePatterns(request.exclude_paths);
  const maxDepth = Number(request.max_depth ?? 3);
  return {
    limit: Number(request.limit ?? 100),
    maxDepth,
    follows(link, depth) {
      if (depth >= maxDepth) return false;
      const url = new URL(link);
      if (url.hostname !== start.hostname && request.allow_external_links !== true) return false;
      if (url.hostname === start.hostname && request.allow_backward_links !== true && !url.pathname.startsWith(folder)) return false;
      if (excludes.some((pattern) => pattern.test(url.pathname))) return false;
      if (includes.length > 0 && !includes.some((pattern) => pattern.test(url.pathname))) return false;
      return robots.isAllowed(link) !== false;
    },
  };
}
