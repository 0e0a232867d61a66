import type { MenuRoute } from '@console/contract';
import { sidebarTree, sortedChildren } from '../menuTree';

/** The first page (a leaf with a path) of a tree in sidebar order, to open when a top menu is chosen. */
export function firstPagePath(tree: readonly MenuRoute[]): string | null {
  for (const node of sidebarTree(tree)) {
    const children = sortedChildren(node);
    if (children.length === 0) {
      if (node.path) return node.path;
      continue;
    }
    const below = firstPagePath(children);
    if (below) return below;
  }
  return null;
}
