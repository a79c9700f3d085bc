/** A made-up web page as blocks, and its renderings: Markdown, cleaned HTML, raw HTML, links, metadata, screenshot. */
import type { components } from '../../../generated/types.ts';
import { pageSketchPngDataUrl } from './png.ts';
import { capitalise, type SeededRandom } from './seeded.ts';

type WebDocument = components['schemas']['WebDocument'];
type PageMetadata = components['schemas']['PageMetadata'];

/** How a page is fetched and cleaned, from the scrape parameters. */
export interface PageOptions {
  onlyMainContent: boolean;
  mobile?: boolean;
  screenshotFullPage?: boolean;
  includeTags?: string[];
  excludeTags?: string[];
  pdfParse?: boolean;
  blockAds?: boolean;
  removeBase64Images?: boolean;
  locationCountry?: string;
}

interface Link { text: string; href: string }
type Block =
  | { tag: 'nav' | 'footer'; links: Link[] }
  | { tag: 'h1' | 'h2' | 'p'; text: string; link?: Link }
  | { tag: 'ul'; items: { strong: string; text: string; link: Link }[] }
  | { tag: 'table'; columns: string[]; rows: string[][] }
  /** `color` is the sketch's header: its PNG is drawn only when a rendering shows the image (a zlib call per image). */
  | { tag: 'img'; alt: string; color: readonly [number, number, number] }
  | { tag: 'aside'; text: string };

/** A page: its facts and its blocks in document order. */
export interface Page {
  url: string;
  title: string;
  description: string | null;
  language: string;
  isPdf: boolean;
  accent: readonly [number, number, number];
  blocks: Block[];
}

/** Every format a document can carry, in the order a document lists them. */
export const ALL_FORMATS = ['markdown', 'html', 'raw_html', 'links', 'metadata', 'screenshot'] as const;
const LANGUAGE_BY_COUNTRY: Record<string, string> = { DE: 'de', AT: 'de', FR: 'fr', ES: 'es', IT: 'it', JP: 'ja', BR: 'pt', NL: 'nl' };
const CHROME_TAGS = new Set(['nav', 'footer']);

/** The `data:` URL of a page's image: a 4×3 sketch in its colour. */
function imageSource(color: readonly [number, number, number]): string {
  return pageSketchPngDataUrl(4, 3, color);
}

/** Makes up the page at `url`. */
export function buildPage(random: SeededRandom, url: string, options: PageOptions): Page {
  const origin = new URL(url).origin;
  const at = (path: string): string => new URL(path, origin).href;
  const [topic = 'guide', second = 'notes'] = random.words(2);
  const title = random.title(3, 6);
  const blocks: Block[] = [
    { tag: 'nav', links: [{ text: 'Home', href: at('/') }, { text: 'Docs', href: at('/docs') }, { text: 'Blog', href: at('/blog') }, { text: 'Pricing', href: at('/pricing') }] },
    { tag: 'h1', text: title },
    { tag: 'p', text: random.sentence(10, 20) },
    { tag: 'img', alt: `${capitalise(topic)} overview`, color: [random.int(0, 255), random.int(0, 255), random.int(0, 255)] },
    { tag: 'h2', text: `What changed in ${topic}` },
    {
      tag: 'ul',
      items: random.words(3).map((word) => ({ strong: capitalise(word), text: random.sentence(4, 8), link: { text: `Read about ${word}`, href: at(`/${topic}/${word}`) } })),
    },
    ...(options.blockAds === false ? [{ tag: 'aside', text: `Sponsored: ${random.sentence(5, 9)}` } as const] : []),
    { tag: 'h2', text: `${capitalise(second)} plans` },
    { tag: 'table', columns: ['Plan', 'Seats', 'Price'], rows: random.words(random.int(2, 4)).map((word) => [capitalise(word), String(random.int(1, 200)), `$${random.int(0, 499)}`]) },
    { tag: 'p', text: random.sentence(8, 16), link: { text: `More ${second}`, href: at(`/${second}`) } },
    { tag: 'footer', links: [{ text: 'Privacy', href: at('/privacy') }, { text: 'Terms', href: at('/terms') }, { text: 'Contact', href: at('/contact') }] },
  ];
  return {
    url,
    title: `${title} | ${capitalise(new URL(url).hostname.split('.')[0] ?? 'site')}`,
    description: random.orNull(0.15, () => random.sentence(8, 16)),
    language: LANGUAGE_BY_COUNTRY[options.locationCountry?.toUpperCase() ?? ''] ?? 'en',
    isPdf: new URL(url).pathname.toLowerCase().endsWith('.pdf'),
    accent: [random.int(0, 255), random.int(0, 255), random.int(0, 255)],
    blocks,
  };
}

/** The document of `page` carrying exactly `formats`. */
export function renderDocument(page: Page, formats: readonly string[], options: PageOptions): WebDocument {
  const document: WebDocument = { url: page.url };
  const content = contentBlocks(page, options);
  for (const format of ALL_FORMATS.filter((name) => formats.includes(name))) {
    if (format === 'markdown') document.markdown = page.isPdf && options.pdfParse === false ? '' : renderMarkdown(content, options);
    if (format === 'html') document.html = content.map((block) => blockHtml(block, options)).join('');
    if (format === 'raw_html') document.raw_html = renderRawHtml(page);
    if (format === 'links') document.links = pageLinks(page);
    if (format === 'metadata') document.metadata = pageMetadata(page, page.url);
    if (format === 'screenshot') document.screenshot = pageSketchPngDataUrl(options.mobile ? 24 : 64, options.screenshotFullPage ? 96 : 40, page.accent);
  }
  return document;
}

/** The page's main content as Markdown, as search results with `include_content` carry it. */
export function mainContentMarkdown(page: Page): string {
  return renderMarkdown(contentBlocks(page, { onlyMainContent: true }), { onlyMainContent: true });
}

/** The facts about a page, asked for as `requestedUrl`. */
export function pageMetadata(page: Page, requestedUrl: string): PageMetadata {
  return {
    title: page.title,
    description: page.description,
    language: page.language,
    source_url: requestedUrl,
    url: page.url,
    status_code: 200,
    content_type: page.isPdf ? 'application/pdf' : 'text/html',
  };
}

/** Absolute URLs of every link on the page, in document order, without duplicates. */
export function pageLinks(page: Page): string[] {
  return [...new Set(page.blocks.flatMap(blockLinks).map((link) => link.href))];
}

function blockLinks(block: Block): Link[] {
  if (block.tag === 'nav' || block.tag === 'footer') return block.links;
  if (block.tag === 'ul') return block.items.map((item) => item.link);
  if (block.tag === 'h1' || block.tag === 'h2' || block.tag === 'p') return block.link ? [block.link] : [];
  return [];
}

/** The blocks kept by `only_main_content`, `include_tags` and `exclude_tags` (tag-name selectors only). */
function contentBlocks(page: Page, options: PageOptions): Block[] {
  const tags = (selectors: string[] | undefined): string[] => (selectors ?? []).map((s) => s.trim().toLowerCase()).filter((s) => /^[a-z][a-z0-9]*$/.test(s));
  const include = tags(options.includeTags);
  const exclude = tags(options.excludeTags);
  return page.blocks.filter((block) =>
    !(options.onlyMainContent && CHROME_TAGS.has(block.tag)) &&
    (include.length === 0 || include.includes(block.tag)) &&
    !exclude.includes(block.tag));
}

function renderMarkdown(blocks: Block[], options: PageOptions): string {
  return blocks.map((block) => blockMarkdown(block, options)).join('\n\n');
}

function blockMarkdown(block: Block, options: PageOptions): string {
  const link = (l: Link): string => `[${l.text}](${l.href})`;
  switch (block.tag) {
    case 'nav':
    case 'footer':
      return block.links.map(link).join(' · ');
    case 'h1':
      return `# ${block.text}`;
    case 'h2':
      return `## ${block.text}`;
    case 'p':
      return block.link ? `${block.text} ${link(block.link)}` : block.text;
    case 'ul':
      return block.items.map((item) => `- **${item.strong}**: ${item.text} ${link(item.link)}`).join('\n');
    case 'table':
      return [`| ${block.columns.join(' | ')} |`, `|${block.columns.map(() => '---').join('|')}|`, ...block.rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
    case 'img':
      return options.removeBase64Images === false ? `![${block.alt}](${imageSource(block.color)})` : block.alt;
    case 'aside':
      return `> ${block.text}`;
  }
}

function blockHtml(block: Block, options: PageOptions): string {
  const link = (l: Link): string => `<a href="${escapeHtml(l.href)}">${escapeHtml(l.text)}</a>`;
  switch (block.tag) {
    case 'nav':
    case 'footer':
      return `<${block.tag}>${block.links.map(link).join(' ')}</${block.tag}>`;
    case 'h1':
    case 'h2':
    case 'p':
      return `<${block.tag}>${escapeHtml(block.text)}${block.link ? ` ${link(block.link)}` : ''}</${block.tag}>`;
    case 'ul':
      return `<ul>${block.items.map((item) => `<li><strong>${escapeHtml(item.strong)}</strong>: ${escapeHtml(item.text)} ${link(item.link)}</li>`).join('')}</ul>`;
    case 'table':
      return `<table><thead><tr>${block.columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr></thead><tbody>${block.rows
        .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`)
        .join('')}</tbody></table>`;
    case 'img':
      return options.removeBase64Images === false ? `<img src="${imageSource(block.color)}" alt="${escapeHtml(block.alt)}">` : `<p>${escapeHtml(block.alt)}</p>`;
    case 'aside':
      return `<aside>${escapeHtml(block.text)}</aside>`;
  }
}

function renderRawHtml(page: Page): string {
  const description = page.description === null ? '' : `<meta name="description" content="${escapeHtml(page.description)}">`;
  const body = page.blocks.map((block) => blockHtml(block, { onlyMainContent: false, removeBase64Images: false })).join('\n');
  return `<!DOCTYPE html>\n<html lang="${page.language}">\n<head><meta charset="utf-8"><title>${escapeHtml(page.title)}</title>${description}<script src="/assets/app.js"></script></head>\n<body>\n${body}\n</body>\n</html>\n`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
