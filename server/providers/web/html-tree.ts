/**
 * The htmlparser2 tree the fast conversion path works on (the same parser linkedom uses, without
 * linkedom's DOM on top): the node types, one depth-first walk, and the few edits the path makes.
 */
import { DomUtils, parseDocument } from 'htmlparser2';

export type TreeElement = ReturnType<typeof DomUtils.findAll>[number];
export type TreeChild = Parameters<typeof DomUtils.removeElement>[0];
export type TreeParent = Parameters<typeof DomUtils.appendChild>[0];
export type TreeDocument = ReturnType<typeof parseDocument>;

/** The page as a tree: entities decoded, tag names in lower case, attribute names as written (as linkedom reads them), each node's place in the source kept. */
export function parseTree(html: string): TreeDocument {
  return parseDocument(html, { decodeEntities: true, lowerCaseAttributeNames: false, withStartIndices: true, withEndIndices: true });
}

export const isElement = (node: TreeChild): node is TreeElement => DomUtils.isTag(node);

/**
 * Visits every element under `root` in document order. `visit` returns false to skip the
 * element's subtree (it may have removed or replaced the element). Iterative: a deep page does not
 * exhaust the stack.
 */
export function walk(root: TreeParent, visit: (element: TreeElement) => boolean | void): void {
  const stack: TreeChild[] = [...root.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node) || visit(node) === false) continue;
    for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
  }
}

/** The first element under `root`, in document order, that `test` accepts. */
export function findFirst(root: TreeParent, test: (element: TreeElement) => boolean): TreeElement | null {
  return DomUtils.findOne(test, root.children, true);
}

export const textOf = (node: TreeParent): string => DomUtils.textContent(node);

export const remove = (node: TreeChild): void => DomUtils.removeElement(node);

/** Replaces `node` with a text node holding `text`. */
export function replaceWithText(node: TreeChild, text: string): void {
  const [textNode] = parseTree('x').children as [TreeChild & { data: string }];
  textNode.data = text;
  DomUtils.replaceElement(node, textNode);
}

export const insertAfter = (node: TreeChild, next: TreeChild): void => DomUtils.append(node, next);

export const appendChild = (parent: TreeParent, child: TreeChild): void => DomUtils.appendChild(parent, child);

/** A new, empty element named `name`. */
export function newElement(name: string): TreeElement {
  return parseTree(`<${name}></${name}>`).children[0] as TreeElement;
}

/** The HTML of the node's children, characters written as themselves (escaped only where HTML needs it, as a browser's innerHTML). */
export const innerHtml = (node: TreeParent): string => DomUtils.getInnerHTML(node, { encodeEntities: 'utf8' });

export const outerHtml = (node: TreeChild): string => DomUtils.getOuterHTML(node, { encodeEntities: 'utf8' });
