import { defineResource, type FieldDef } from '@console/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { checkRegionSearch } from '../src/core/resource/filters.js';

/** A region search (`search: 'region'`) is answered by the resource's own `<field>_likeright`: checked at mount. */
const withCode = (code: FieldDef) => defineResource({
  code: 'kit_region', path: '/api/kit/region', title: { zh: '区域', en: 'Regions' }, scope: 'tenant', fields: { code },
});
const label = { zh: '区域', en: 'Region' };
const answered = { listParams: { code_likeright: async () => sql`true` } };

describe('region searches', () => {
  it('need the resource\'s <field>_likeright parameter, on a region path', () => {
    const region = withCode({ type: 'string', label, regionPath: true, search: 'region' });
    expect(() => checkRegionSearch(region, {})).toThrow(/code_likeright/);
    expect(() => checkRegionSearch(region, answered)).not.toThrow();
    expect(() => checkRegionSearch(withCode({ type: 'string', label, search: 'region' }), answered)).toThrow(/regionPath/);
    // a region path searched whole needs nothing of its own
    expect(() => checkRegionSearch(withCode({ type: 'string', label, regionPath: true, search: 'equal' }), {})).not.toThrow();
  });
});
