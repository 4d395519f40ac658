import type { ComparisonNode, LogicalNode, Node } from './ast.ts';

/**
 * Visits every node depth-first, parents before children, left to right, without recursion.
 * Returning `false` from `visit` skips that node's children.
 *
 * @example
 * const selectors: string[] = [];
 * walk(parse('a==1;(b==2,c==3)'), (node) => {
 *   if (node.type === 'comparison') selectors.push(node.selector);
 * });
 * // selectors: ['a', 'b', 'c']
 */
export function walk(
  root: Node,
  visit: (node: Node, parent: LogicalNode | undefined) => boolean | void,
): void {
  const stack: { node: Node; parent: LogicalNode | undefined }[] = [
    { node: root, parent: undefined },
  ];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { node, parent } = item;
    if (visit(node, parent) === false || node.type === 'comparison') continue;
    for (let i = node.children.length - 1; i >= 0; i--) {
      const child = node.children[i];
      if (child !== undefined) stack.push({ node: child, parent: node });
    }
  }
}

/**
 * All comparisons of a tree in reading order.
 *
 * @example
 * comparisons(parse('a==1;(b==2,c==3)')).map((c) => c.selector); // ['a', 'b', 'c']
 */
export function comparisons(root: Node): ComparisonNode[] {
  const found: ComparisonNode[] = [];
  walk(root, (node) => {
    if (node.type === 'comparison') found.push(node);
  });
  return found;
}
