import type { apiScopeResource, dataScopeResource, deptResource, menuResource, postResource, roleResource, userResource } from '@console/contract';
import type { ResourceDef } from '@console/contract';
import { definitionByCode } from './definitions';

function byCode<T>(code: string): T {
  const def: ResourceDef | undefined = definitionByCode(code);
  if (!def) throw new Error(`no resource definition "${code}"`);
  return def as unknown as T;
}

/**
 * The definitions the custom pages use, typed (with their typed actions), from modules/definitions.ts: the
 * chunk that resolves the route and loads the custom page already holds them.
 */
export const userDef = byCode<typeof userResource>('user');
export const roleDef = byCode<typeof roleResource>('role');
export const deptDef = byCode<typeof deptResource>('dept');
export const postDef = byCode<typeof postResource>('post');
export const menuDef = byCode<typeof menuResource>('menu');
export const dataScopeDef = byCode<typeof dataScopeResource>('data_scope');
export const apiScopeDef = byCode<typeof apiScopeResource>('api_scope');
