import { describe, expect, it } from 'vitest';

import type { Node } from './ast.ts';
import { parse } from './parser.ts';
import { comparisons, walk } from './walk.ts';

describe('walk', () => {
  it('visits parents before children, left to right, with their parent', () => {
    const root = parse('a==1;(b==2,c==3;d==4)');
    const seen: string[] = [];
    walk(root, (node, parent) => {
      const name = node.type === 'comparison' ? node.selector : node.type;
      seen.push(`${parent?.type ?? '-'}>${name}`);
    });
    expect(seen).toEqual(['->and', 'and>a', 'and>or', 'or>b', 'or>and', 'and>c', 'and>d']);
  });

  it('skips children when the visitor returns false', () => {
    const seen: Node['type'][] = [];
    walk(parse('a==1;(b==2,c==3)'), (node) => {
      seen.push(node.type);
      return node.type !== 'or';
    });
    expect(seen).toEqual(['and', 'comparison', 'or']);
  });

  it('lists comparisons in reading order', () => {
    expect(comparisons(parse('x==1,(y==2;z==3)')).map((c) => c.selector)).toEqual(['x', 'y', 'z']);
  });
});
