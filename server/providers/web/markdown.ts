/**
 * HTML to Markdown: turndown over the tree linkedom already parsed (turndown would otherwise parse
 * the HTML a second time with its own DOM), with GitHub-flavoured tables, strikethrough and task
 * lists written for that tree. A table holding another table is a layout: its cells read as text.
 */
import TurndownService from 'turndown';

/** The few DOM members the rules read; linkedom's elements have them. */
interface TreeNode {
  nodeName: string;
  parentNode: TreeNode | null;
  childNodes: ArrayLike<TreeNode>;
  textContent: string | null;
  getAttribute?(name: string): string | null;
  querySelector?(selector: string): TreeNode | null;
}

interface TableLayout {
  /** Rows in document order: the table's own and those of its thead, tbody and tfoot. */
  rows: TreeNode[];
  columns: number;
  /** A table with another table inside is a layout, not data: no Markdown table for it. */
  isLayout: boolean;
}

const SECTIONS = new Set(['THEAD', 'TBODY', 'TFOOT']);
const layouts = new WeakMap<TreeNode, TableLayout>();

function children(node: TreeNode, names: ReadonlySet<string> | string): TreeNode[] {
  return Array.from(node.childNodes).filter((child) => (typeof names === 'string' ? child.nodeName === names : names.has(child.nodeName)));
}

function span(cell: TreeNode): number {
  return Math.max(1, Math.min(1000, Number.parseInt(cell.getAttribute?.('colspan') ?? '1', 10) || 1));
}

function layoutOf(table: TreeNode): TableLayout {
  let layout = layouts.get(table);
  if (!layout) {
    const rows = Array.from(table.childNodes).flatMap((child) => (child.nodeName === 'TR' ? [child] : SECTIONS.has(child.nodeName) ? children(child, 'TR') : []));
    const columns = Math.max(0, ...rows.map((row) => children(row, CELLS).reduce((sum, cell) => sum + span(cell), 0)));
    layout = { rows, columns, isLayout: table.querySelector?.('table') != null || columns === 0 };
    layouts.set(table, layout);
  }
  return layout;
}

function tableOf(node: TreeNode): TreeNode | null {
  let current = node.parentNode;
  while (current && current.nodeName !== 'TABLE') current = current.parentNode;
  return current;
}

const CELLS = new Set(['TH', 'TD']);
const ALIGNMENT: Record<string, string> = { left: ':---', center: ':---:', right: '---:' };

function delimiterRow(header: TreeNode, columns: number): string {
  const alignments = children(header, CELLS).flatMap((cell) => Array<string>(span(cell)).fill(ALIGNMENT[(cell.getAttribute?.('align') ?? '').toLowerCase()] ?? '---'));
  while (alignments.length < columns) alignments.push('---');
  return `| ${alignments.join(' | ')} |`;
}

function gfm(service: TurndownService): void {
  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement(content, node) {
      const table = tableOf(node as unknown as TreeNode);
      if (!table || layoutOf(table).isLayout) return `${content}\n\n`;
      const text = content.trim().replace(/\n+/g, '<br>').replace(/\|/g, '\\|');
      return ` ${text} |${' |'.repeat(span(node as unknown as TreeNode) - 1)}`;
    },
  });
  service.addRule('tableRow', {
    filter: 'tr',
    replacement(content, node) {
      const row = node as unknown as TreeNode;
      const table = tableOf(row);
      if (!table || layoutOf(table).isLayout) return content;
      const { rows, columns } = layoutOf(table);
      const filled = children(row, CELLS).reduce((sum, cell) => sum + span(cell), 0);
      const line = `\n|${content}${' |'.repeat(Math.max(0, columns - filled))}`;
      return rows[0] === row ? `${line}\n${delimiterRow(row, columns)}` : line;
    },
  });
  service.addRule('tableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content) => content });
  service.addRule('tableCaption', { filter: ['caption', 'colgroup', 'col'], replacement: () => '' });
  service.addRule('table', {
    filter: 'table',
    replacement(content, node) {
      const table = node as unknown as TreeNode;
      if (layoutOf(table).isLayout) return `\n\n${content}\n\n`;
      const caption = children(table, 'CAPTION')[0]?.textContent?.trim();
      return `\n\n${caption ? `${caption}\n\n` : ''}${content.replace(/\n+/g, '\n').trim()}\n\n`;
    },
  });
  service.addRule('strikethrough', { filter: ['del', 's'], replacement: (content) => `~~${content}~~` });
  service.addRule('taskListItem', {
    filter: (node) => node.nodeName === 'INPUT' && node.getAttribute('type') === 'checkbox' && node.parentNode?.nodeName === 'LI',
    replacement: (_content, node) => ((node as HTMLElement).hasAttribute('checked') ? '[x] ' : '[ ] '),
  });
}

const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' });
service.use(gfm);
service.remove(['script', 'style', 'noscript']);

/**
 * Markdown of an element's content. The element is converted in place (turndown's whitespace pass
 * changes it): turndown would copy it first, and a copy of every node costs a fifth of the time.
 * Callers pass a tree they no longer need.
 */
export function toMarkdown(element: object): string {
  const inPlace = { nodeType: 1, cloneNode: () => element };
  return service.turndown(inPlace as unknown as HTMLElement).trim();
}
