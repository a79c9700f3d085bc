/**
 * HTML to Markdown: @mdream/js (pure JavaScript, several times faster than turndown over a DOM)
 * over a tree prepared for it first, for what mdream does not do on its own: a table holding
 * another table is a layout and its cells read as text, a data table's first row is its header
 * (with its cells' alignment), short rows are padded, a cell's paragraphs are kept apart with
 * `<br>`, and a list item's checkbox is a GitHub task-list marker.
 */
import { htmlToMarkdown } from '@mdream/js';
import { appendChild, innerHtml, insertAfter, isElement, newElement, outerHtml, walk, type TreeChild, type TreeElement, type TreeParent } from './html-tree.ts';

const SECTIONS = new Set(['thead', 'tbody', 'tfoot']);
const CELLS = new Set(['th', 'td']);
/** Children of a cell that start a line of their own; a `<br>` keeps them apart in the cell's one Markdown line. */
const CELL_BLOCKS = new Set(['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'ul', 'ol']);
/** Checkboxes become these two elements, which mdream writes as task-list markers. */
const TASK_DONE = 'mdream-task-done';
const TASK_OPEN = 'mdream-task-open';
const OPTIONS = {
  plugins: {
    tagOverrides: {
      [TASK_DONE]: { enter: '[x] ', isInline: true, isSelfClosing: true },
      [TASK_OPEN]: { enter: '[ ] ', isInline: true, isSelfClosing: true },
    },
  },
};

const elementChildren = (element: TreeElement, names: ReadonlySet<string>): TreeElement[] =>
  element.children.filter((child): child is TreeElement => isElement(child) && names.has(child.name));

function span(cell: TreeElement): number {
  return Math.max(1, Math.min(1000, Number.parseInt(cell.attribs.colspan ?? '1', 10) || 1));
}

/** A table's own rows in document order (its own and those of its thead, tbody and tfoot), not a nested table's. */
function rowsOf(table: TreeElement): TreeElement[] {
  return table.children.flatMap((child) => !isElement(child) ? [] : child.name === 'tr' ? [child] : SECTIONS.has(child.name) ? elementChildren(child, new Set(['tr'])) : []);
}

function hasTableInside(table: TreeElement): boolean {
  let found = false;
  walk(table, (element) => {
    if (element.name === 'table') found = true;
    return !found;
  });
  return found;
}

/** Paragraphs and other blocks of a data cell separated by `<br>`, so the cell stays one Markdown line with its breaks. */
function separateBlocks(cell: TreeElement): void {
  const blocks = elementChildren(cell, CELL_BLOCKS);
  for (const block of blocks.slice(0, -1)) insertAfter(block, newElement('br'));
}

function prepareTable(table: TreeElement): void {
  const rows = rowsOf(table);
  const cellsOf = rows.map((row) => elementChildren(row, CELLS));
  const columns = Math.max(0, ...cellsOf.map((cells) => cells.reduce((sum, cell) => sum + span(cell), 0)));
  if (columns === 0 || hasTableInside(table)) {
    // A layout: its own structure becomes plain blocks; a table inside it is still a table.
    for (const element of [table, ...table.children.filter((child): child is TreeElement => isElement(child) && SECTIONS.has(child.name)), ...rows, ...cellsOf.flat()]) element.name = 'div';
    return;
  }
  for (const [index, row] of rows.entries()) {
    const cells = cellsOf[index]!;
    for (const cell of cells) {
      if (index === 0) cell.name = 'th';
      separateBlocks(cell);
    }
    for (let filled = cells.reduce((sum, cell) => sum + span(cell), 0); filled < columns; filled++) {
      appendChild(row, newElement(index === 0 ? 'th' : 'td'));
    }
  }
}

/** Readies the tree for mdream, in place (see the file's description). */
function prepare(root: TreeParent): void {
  walk(root, (element) => {
    if (element.name === 'table') prepareTable(element);
    else if (element.name === 'input' && element.attribs.type?.toLowerCase() === 'checkbox' && (element.parent as TreeElement | null)?.name === 'li') {
      element.name = element.attribs.checked === undefined ? TASK_OPEN : TASK_DONE;
    }
  });
}

/** Elements that write no Markdown of their own around their content: a large one is converted child by child. */
const CONTAINERS = new Set(['html', 'body', 'main', 'article', 'section', 'div']);
/** Source characters converted in one call at most, where the content allows a cut. */
const BATCH_CHARS = 32_768;
const INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'br', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'i', 'img', 'input', 'ins', 'kbd', 'label', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr']);

const sizeOf = (node: TreeChild): number => (node.endIndex ?? 0) - (node.startIndex ?? 0);
/** Whether Markdown may be cut between this node and its neighbour: a block, or blank text (an inline element or text joins its neighbours' line). */
const isCuttable = (node: TreeChild | undefined): boolean => !node || (isElement(node) ? !INLINE.has(node.name) : node.type === 'text' && !/\S/.test((node as TreeChild & { data: string }).data));

/**
 * The content's HTML in batches of about BATCH_CHARS, cut only between blocks, large containers
 * opened. mdream's time grows faster than the page with its code blocks (it searches its whole
 * output for each fence it opens): converted in batches, a large page costs what its parts cost.
 */
function batches(root: TreeParent): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let chars = 0;
  const flush = () => {
    if (current.length > 0) out.push(current.join(''));
    current = [];
    chars = 0;
  };
  const collect = (parent: TreeParent) => {
    for (const [index, child] of parent.children.entries()) {
      if (isElement(child) && CONTAINERS.has(child.name) && sizeOf(child) > BATCH_CHARS) {
        flush();
        collect(child);
        flush();
        continue;
      }
      current.push(outerHtml(child));
      chars += sizeOf(child);
      if (chars >= BATCH_CHARS && isCuttable(child) && isCuttable(parent.children[index + 1])) flush();
    }
  };
  collect(root);
  flush();
  return out;
}

/**
 * Markdown of the content under `root` (an htmlparser2 tree parsed by parseTree; see
 * html-tree.ts). The tree is changed in place: callers pass a tree they no longer need.
 */
export function toMarkdown(root: TreeParent): string {
  prepare(root);
  if (sizeOf(root) <= BATCH_CHARS) return htmlToMarkdown(innerHtml(root), OPTIONS).trim();
  return batches(root).map((html) => htmlToMarkdown(html, OPTIONS).trim()).filter(Boolean).join('\n\n');
}
