import type { ResourceHooks } from '../../core/resource/engine.js';
import { fieldError } from '../../core/errors.js';
import { operatorOf } from './placement.js';
import { areaModifyLog } from './tables.js';
import { isRegionPath, regionNameHooks } from './regions.js';

const normalPath = (v: unknown) => String(v ?? '').split(',').map((p) => p.trim()).filter(Boolean).join(',');

/** The modify log: both regions by name; an imported row's paths are paths of the tree, its operator the importer by default. */
export const areaModifyLogHooks = (): ResourceHooks => ({
  ...regionNameHooks({ oldCode: ['oldName', areaModifyLog.oldCode], newCode: ['newName', areaModifyLog.newCode] }),
  shownReads: ['oldCode', 'newCode'],
  async beforeSave(tx, values, c) {
    if (c.mode !== 'create') return;
    values.newCode = normalPath(values.newCode);
    if (!(await isRegionPath(tx, String(values.newCode)))) throw fieldError('areaCodePath', c.lang, 'newCode');
    values.oldCode = normalPath(values.oldCode) || null;
    if (values.oldCode && !(await isRegionPath(tx, String(values.oldCode)))) throw fieldError('areaCodePath', c.lang, 'oldCode');
    if (!values.operator) values.operator = operatorOf(c.user);
  },
});
