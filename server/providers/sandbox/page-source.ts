/**
 * The sandbox's pages for jobs and monitor checks: made up from the URL alone (the document a
 * scrape of it gives), linked to a few pages below its path, no robots.txt, one page per tick.
 */
import { ProviderError, type PageSource } from '../types.ts';
import { failOnMagicUrl } from './magic-failures.ts';
import { childUrls, sandboxAgentAnswer, sandboxAgentPlan, sandboxDocument } from './web-jobs.ts';
import type { MonitorJudge, WebAgent } from '../types.ts';

/** The links of a sandbox page: a few pages below its path (its query and fragment aside). */
function linksOf(url: string): string[] {
  const { origin, pathname } = new URL(url);
  return childUrls(origin + pathname);
}

export const sandboxPageSource: PageSource = {
  pagesPerStep: 1,
  fetchesAtOnce: 1,
  oneStepPerTick: true,
  async page(url, request) {
    const document = sandboxDocument(url, request.formats, { onlyMainContent: request.onlyMainContent });
    return { url: document.url, statusCode: 200, document, links: linksOf(url) };
  },
  async robots() {
    return { isAllowed: () => undefined };
  },
  /** A crawl's extent, visiting as the job runner does (breadth-first); a start URL that fails (a magic host) is the only page. */
  crawlSize(startUrl, limit, follows) {
    try {
      failOnMagicUrl(startUrl);
    } catch (error) {
      if (error instanceof ProviderError) return 1;
      throw error;
    }
    const seen = new Set([startUrl]);
    const queue = [{ url: startUrl, depth: 0 }];
    for (let index = 0; index < queue.length && index < limit; index++) {
      const { url, depth } = queue[index]!;
      for (const link of linksOf(url)) {
        if (seen.has(link) || !follows(link, depth)) continue;
        seen.add(link);
        queue.push({ url: link, depth: depth + 1 });
      }
    }
    return Math.min(limit, queue.length);
  },
};

/**
 * The sandbox's agent, step by step as a live one: it opens the pages of its plan (the start URL
 * and a few below it, more for spark-1-pro) one per step while its budget lasts, then answers
 * with a made-up answer from the start URL, the prompt and the model.
 */
export const sandboxAgent: WebAgent = {
  async step(state) {
    const read = new Set(state.pagesRead.map((page) => new URL(page.url).href));
    const next = sandboxAgentPlan(state.startUrl, state.model).find((url) => !read.has(new URL(url).href));
    if (next !== undefined && state.pagesLeft > 0) return { action: 'open', url: next };
    const { text, data } = sandboxAgentAnswer(state.startUrl, state.prompt, state.model);
    return { action: 'answer', text, data };
  },
};

/** The sandbox's judge counts every change as meeting the goal. */
export const sandboxJudge: MonitorJudge = {
  async judge(request) {
    return { meets_goal: true, reason: `The page changed; the sandbox judge counts every change as meeting the goal "${request.goal}".` };
  },
};
