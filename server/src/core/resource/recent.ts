import { filterableFields, type ResourceDef } from '@console/contract';
import type { ColumnMap } from './filters.js';

/** `recent` names a datetime field the resource can filter (its column the table's partition key) and a positive number of days: thrown at mount. */
export function checkRecent(def: ResourceDef, columns: ColumnMap): void {
  const recent = def.recent;
  if (!recent) return;
  const f = filterableFields(def)[recent.field];
  if (!f || f.type !== 'datetime' || !columns[recent.field]) {
    throw new Error(`resource ${def.code}: recent.field ${recent.field} must be a datetime field with a column (the table's partition key)`);
  }
  if (!(recent.days > 0)) throw new Error(`resource ${def.code}: recent.days must be a positive number of days`);
}
