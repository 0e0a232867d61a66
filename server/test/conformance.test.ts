import { describe, expect, it } from 'vitest';
import { moduleResources } from '../src/modules/index.js';
import { describeResource, KIT_CHECKS, type ResourceOptions } from './conformance/kit.js';
import { useServer } from './harness.js';

/**
 * The conformance kit over every resource a module binds: a new resource gets the standard tests by being
 * bound. What a resource needs beyond generated values goes in OPTIONS, keyed by its code; a group of
 * tests it cannot pass is skipped only with a reason, and shows as a skipped test.
 */
const OPTIONS: Record<string, Omit<ResourceOptions, 'harness'>> = {
  param: {},
  notice: {},
};

const h = useServer();
const bound = moduleResources().map((b) => b.def);

describe('conformance kit coverage', () => {
  it('has options only for bound resources, and reasons for every skip', () => {
    const codes = bound.map((d) => d.code);
    expect(Object.keys(OPTIONS).filter((c) => !codes.includes(c))).toEqual([]);
    for (const [code, o] of Object.entries(OPTIONS)) {
      for (const [check, reason] of Object.entries(o.skip ?? {})) {
        expect(KIT_CHECKS, code).toContain(check);
        expect(reason?.trim(), `${code}: skip ${check}`).toBeTruthy();
      }
    }
  });
});

for (const def of bound) describeResource(def, { ...OPTIONS[def.code], harness: h });
