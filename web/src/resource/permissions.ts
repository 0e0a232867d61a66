import { permissionCodes, type ResourceDef } from '@console/contract';

export interface AllowedButtons {
  add: boolean;
  edit: boolean;
  delete: boolean;
  view: boolean;
}

/**
 * A standard button shows when the definition keeps it and the user holds its permission code. The engine
 * mounts no `submit` for a read-only resource and no update for a create-only one, and `remove` for either
 * only when it is `removable`: their buttons never show (as the menu seed leaves them out).
 */
export function allowedButtons(def: ResourceDef, can: (code: string) => boolean): AllowedButtons {
  const codes = permissionCodes(def);
  const writes = def.readOnly ? { add: false, edit: false } : def.createOnly ? { edit: false } : {};
  const removes = (def.readOnly || def.createOnly) && !def.removable ? { delete: false } : {};
  const kept = { add: true, edit: true, delete: true, view: true, ...def.buttons, ...writes, ...removes };
  return {
    add: kept.add && can(codes.add),
    edit: kept.edit && can(codes.edit),
    delete: kept.delete && can(codes.delete),
    view: kept.view && can(codes.view),
  };
}
