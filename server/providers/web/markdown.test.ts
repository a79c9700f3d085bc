import { describe, expect, it } from 'vitest';
import { parseTree } from './html-tree.ts';
import { toMarkdown } from './markdown.ts';

function markdownOf(html: string): string {
  return toMarkdown(parseTree(html));
}

describe('Markdown from the parsed tree', () => {
  it('writes a table with a header row and its delimiter', () => {
    expect(markdownOf('<table><thead><tr><th>Plan</th><th>Price</th></tr></thead><tbody><tr><td>Team</td><td>$49</td></tr></tbody></table>'))
      .toBe('| Plan | Price |\n| --- | --- |\n| Team | $49 |');
  });

  it('takes the first row as the header when there is no thead, and keeps alignment', () => {
    expect(markdownOf('<table><tr><td align="left">a</td><td align="center">b</td><td align="right">c</td></tr><tr><td>1</td><td>2</td><td>3</td></tr></table>'))
      .toBe('| a | b | c |\n| :--- | :---: | ---: |\n| 1 | 2 | 3 |');
  });

  it('pads short rows, spreads colspan, escapes pipes and keeps line breaks inside a cell', () => {
    // mdream writes a padded (empty) cell with two spaces, the colspan's filler with one.
    expect(markdownOf('<table><tr><th colspan="2">Both</th><th>C</th></tr><tr><td>x|y</td></tr><tr><td><p>one</p><p>two</p></td><td>b</td><td>c</td></tr></table>'))
      .toBe('| Both | | C |\n| --- | --- | --- |\n| x\\|y |  | |\n| one<br>two | b | c |');
  });

  it('puts the caption above the table', () => {
    expect(markdownOf('<table><caption>Prices</caption><tr><th>Plan</th></tr><tr><td>Team</td></tr></table>')).toBe('Prices\n\n| Plan |\n| --- |\n| Team |');
  });

  it('reads a layout table (one holding another table) as text, and the inner table as a table', () => {
    const markdown = markdownOf('<table><tr><td><p>Sidebar</p></td><td><table><tr><th>k</th></tr><tr><td>v</td></tr></table></td></tr></table>');
    expect(markdown).toContain('Sidebar');
    expect(markdown).toContain('| k |\n| --- |\n| v |');
    expect(markdown).not.toContain('| Sidebar');
  });

  it('writes headings, lists, links, emphasis, strikethrough, task lists and fenced code with its language', () => {
    const markdown = markdownOf(`<h2>Title</h2><ul><li><input type="checkbox" checked>done</li><li><input type="checkbox">todo</li></ul>
      <p><a href="https://example.com/a">link</a> <em>soft</em> <strong>hard</strong> <del>gone</del></p>
      <pre><code class="language-ts">const a = 1;\nconst b = 2;</code></pre>`);
    expect(markdown).toContain('## Title');
    expect(markdown).toMatch(/^-\s+\[x\] done$/m);
    expect(markdown).toMatch(/^-\s+\[ \] todo$/m);
    expect(markdown).toContain('[link](https://example.com/a) *soft* **hard** ~~gone~~');
    expect(markdown).toContain('```ts\nconst a = 1;\nconst b = 2;\n```');
  });

  it('a large page, converted in batches (mdream\'s time grows with the square of its code blocks), reads as its parts do', () => {
    const section = '<h2>Part</h2><p>Some <em>text</em> and <a href="https://example.com/x">a link</a>.</p><pre><code class="language-js">let a = 1;</code></pre><ul><li>one</li><li>two</li></ul>';
    const large = `<article>${section.repeat(1000)}</article>`;
    expect(large.length).toBeGreaterThan(4 * 32_768);
    expect(markdownOf(large)).toBe(Array(1000).fill(markdownOf(section)).join('\n\n'));
  });
});
