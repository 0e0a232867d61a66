import { z } from 'zod';
import type { ResourceDef } from './resource.js';

/** The state of a background import (api.md section 5), as `get-upload-progress` answers it. */
export const importProgressSchema = z.object({
  id: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  /** data rows read so far (all of them once the file is read) */
  total: z.number().int(),
  /** rows checked */
  processed: z.number().int(),
  /** rows written (all of them once done; 0 when the import failed, since nothing is written then) */
  succeeded: z.number().int(),
  /** rows with an error */
  failed: z.number().int(),
  /** per row (the spreadsheet's row number; 1 is the header), in the caller's language */
  errors: z.array(z.object({ row: z.number().int(), message: z.string() })),
  resultUrl: z.string().optional(),
});
export type ImportProgress = z.infer<typeof importProgressSchema>;

/** The permission codes and paths of a resource's export and import, when its definition declares them. */
export function ioRoutes(def: Pick<ResourceDef, 'code' | 'path' | 'io'>) {
  const { export: ex, import: im } = def.io ?? {};
  return {
    export: ex ? { path: `${def.path}/${ex.name ?? 'export'}`, permission: ex.permission ?? `${def.code}_export` } : undefined,
    import: im
      ? {
        path: `${def.path}/${im.name ?? 'import'}`,
        template: `${def.path}/import-template`,
        progress: `${def.path}/get-upload-progress`,
        permission: im.permission ?? `${def.code}_import`,
      }
      : undefined,
  };
}
