/**
 * The sandbox's pages for jobs and monitor checks: made up from the URL alone (the document a
 * scrape of it gives), linked to a few pages below its path, no robots.txt, one page per tick.
 */
import { ProviderError, type PageSource } from '../types.ts';
import { childUrls, sandboxAgentAnswer, sandboxCrawlUrls, sandboxDocument } from './web-jobs.ts';
import type { MonitorJudge, WebAgent } from '../types.ts';

export const sandboxPageSource: PageSource = {
  pagesPerStep: 1,
  fetchesAtOnce: 1,
  oneStepPerTick: true,
  async page(url, request) {
    const document = sandboxDocument(url, request.formats, { onlyMainContent: request.onlyMainContent });
    const { origin, pathname } = new URL(url);
    return { url: document.url, statusCode: 200, document, links: childUrls(origin + pathname) };
  },
  async robots() {
    return { isAllowed: () => undefined };
  },
  /** A crawl's extent; a start URL that fails (a magic host) is the only page, visited and stored with its error. */
  crawlSize(startUrl, limit, maxDepth) {
    try {
      return sandboxCrawlUrls(startUrl, limit, maxDepth).length;
    } catch (error) {
      if (error instanceof ProviderError) return 1;
      throw error;
    }
  },
};

/** The sandbox's agent: a made-up answer from the start URL, the prompt and the model. */
export const sandboxAgent: WebAgent = {
  async answer(request) {
    return sandboxAgentAnswer(request.url, request.prompt, request.model);
  },
};

/** The sandbox's judge counts every change as meeting the goal. */
export const sandboxJudge: MonitorJudge = {
  async judge(request) {
    return { meets_goal: true, reason: `The page changed; the sandbox judge counts every change as meeting the goal "${request.goal}".` };
  },
};
