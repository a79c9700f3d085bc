/** What the job runner asks the sandbox for: one page's document, the URLs a crawl visits, an agent's answer. */
import type { components } from '../../../generated/types.ts';
import { failOnMagicUrl } from './magic-failures.ts';
import { requestRandom } from './request.ts';
import { SeededRandom } from './seeded.ts';
import { buildPage, renderDocument, type PageOptions } from './web-page.ts';

type WebDocument = components['schemas']['WebDocument'];
type AgentAnswer = components['schemas']['AgentAnswer'];

/** The document of `url` with exactly `formats`; the same as a scrape of `url` with these `formats` and `only_main_content`. */
export function sandboxDocument(url: string, formats: string[], options: PageOptions): WebDocument {
  failOnMagicUrl(url);
  const random = requestRandom('scrapeWebPage', { url, formats: formats.join(','), only_main_content: options.onlyMainContent });
  return renderDocument(buildPage(random, url, options), formats, options);
}

/** Up to `limit` distinct URLs below the start URL's path on its host, start first, breadth-first, at most `maxDepth` hops. */
export function sandboxCrawlUrls(startUrl: string, limit: number, maxDepth: number): string[] {
  failOnMagicUrl(startUrl);
  const start = new URL(startUrl);
  const urls = new Set([startUrl]);
  let frontier = [start.origin + start.pathname];
  for (let depth = 1; depth <= maxDepth && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const child of frontier.flatMap(childUrls)) {
      if (urls.size >= limit) return [...urls].slice(0, limit);
      if (urls.has(child)) continue;
      urls.add(child);
      next.push(child);
    }
    frontier = next;
  }
  return [...urls].slice(0, limit);
}

/** The pages linked from `url` below its path: the same for the same URL, whatever the crawl (or page source) asks. */
export function childUrls(url: string): string[] {
  const random = new SeededRandom(`crawl-children:${url}`);
  const base = url.endsWith('/') ? url : `${url}/`;
  return random.words(random.int(2, 4)).map((word) => `${base}${word}`);
}

/** The pages a sandbox agent job starting at `url` reads, start first: 2 with spark-1-mini, 5 with spark-1-pro. */
export function sandboxAgentPlan(url: string, model: string): string[] {
  return sandboxCrawlUrls(url, model === 'spark-1-pro' ? 5 : 2, 2);
}

/** The answer of an agent job starting at `url`: prose, a JSON object when the prompt asks for one, and its sources (the pages of its plan). */
export function sandboxAgentAnswer(url: string, prompt: string, model: string): AgentAnswer {
  failOnMagicUrl(url);
  const random = requestRandom('runWebAgent', { url, prompt, model });
  const thorough = model === 'spark-1-pro';
  const sources = sandboxAgentPlan(url, model);
  const text = [
    `Based on ${sources.length} page${sources.length === 1 ? '' : 's'} of ${new URL(url).hostname}:`,
    ...Array.from({ length: thorough ? 4 : 2 }, () => `- ${random.sentence(8, 16)}`),
  ].join('\n');
  return { text, data: structuredAnswer(random, prompt, text) as AgentAnswer['data'], sources };
}

/** A JSON object when the prompt asks for structured output: its named fields when it lists them, else `answer`. */
function structuredAnswer(random: SeededRandom, prompt: string, text: string): Record<string, unknown> | null {
  if (!/\bjson\b|\bstructured\b|\bfields?\b/i.test(prompt)) return null;
  const listed = /\bfields?\b([^.;:\n]*)/i.exec(prompt)?.[1] ?? '';
  const names = listed
    .split(/,|\band\b/)
    .map((part) => part.trim().replace(/^(?:the|named|called)\s+/i, '').replace(/[`'"]/g, ''))
    .filter((part) => /^[A-Za-z_][A-Za-z0-9_]{0,40}$/.test(part))
    .slice(0, 10);
  if (names.length === 0) return { answer: text };
  return Object.fromEntries(names.map((name) => [name, random.chance(0.3) ? random.int(1, 500) : random.title(1, 3)]));
}
