import { z } from 'zod';
import type { TreeNode } from './envelope.js';

/** The answer shape of tree calls (`tree`, `lazy-tree`, `tree-by-id`…), for declared actions. */
export const TREE_NODE: z.ZodType<TreeNode> = z.lazy(() => z.object({
  id: z.string(), parentId: z.string(), title: z.string(), key: z.string(), value: z.string(), ancestors: z.string().optional(),
  hasChildren: z.boolean().optional(), children: z.array(TREE_NODE).optional(),
}));
