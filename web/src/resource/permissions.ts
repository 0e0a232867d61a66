import { permissionCodes, type ResourceDef } from '@console/contract';

export interface AllowedButtons {
  add: boolean;
  edit: boolean;
  delete: boolean;
  view: boolean;
}

/** A standard button shows when the definition keeps it and the user holds its permission code. */
export function allowedButtons(def: ResourceDef, can: (code: string) => boolean): AllowedButtons {
  const codes = permissionCodes(def);
  const kept = { add: true, edit: true, delete: true, view: true, ...def.buttons };
  return {
    add: kept.add && can(codes.add),
    edit: kept.edit && can(codes.edit),
    delete: kept.delete && can(codes.delete),
    view: kept.view && can(codes.view),
  };
}
