import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Area, areasMenus, areasMessages, areasResources, defineArea } from '../src/area.js';
import { coreMessages } from '../src/messages.js';
import { MENU_DIRECTORIES, type MessageKey, messages, msg, resources } from '../src/index.js';
import { userResource } from '../src/areas/system/index.js';

type Equals<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;
const assertType = <T extends true>(): T | undefined => undefined;

// The merged types keep every key and every definition's exact type (checked by `tsc -p contract`).
assertType<Equals<typeof resources.user, typeof userResource>>();
assertType<Equals<(typeof messages)['ok']['en'], 'Success'>>();
const areaKey: MessageKey = 'flowTaskMissing';
const coreKey: MessageKey = 'notFound';
// @ts-expect-error a key that neither the core nor an area declares
const wrongKey: MessageKey = 'noSuchMessage';
// @ts-expect-error msg takes declared keys only
const wrongCall = (): string => msg('noSuchMessage', 'en');
// @ts-expect-error no resource has this code
const wrongCode = (): unknown => resources.no_such_code;

const areaDirs = readdirSync(new URL('../src/areas/', import.meta.url), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
const manifests = async (): Promise<Area[]> =>
  Promise.all(areaDirs.map(async (dir) => ((await import(`../src/areas/${dir}/index.ts`)) as { default: Area }).default));

describe('areas', () => {
  it('checks the typed keys at run time too', () => {
    expect([areaKey, coreKey, wrongKey].map((k) => k in messages)).toEqual([true, true, false]);
    expect(() => wrongCall()).toThrow();
    expect(wrongCode()).toBeUndefined();
  });

  it('every folder under areas/ is an area named after it, and the registry merges them all', async () => {
    const areas = await manifests();
    expect(areas.map((a) => a.name)).toEqual(areaDirs);
    const resourceCodes = areas.flatMap((a) => Object.keys(a.resources));
    expect([...resourceCodes].sort()).toEqual(Object.keys(resources).sort());
    const messageKeys = [...Object.keys(coreMessages), ...areas.flatMap((a) => Object.keys(a.messages))];
    expect(messageKeys.sort()).toEqual(Object.keys(messages).sort());
    expect(areas.flatMap((a) => a.menus.map((d) => d.code)).sort()).toEqual(MENU_DIRECTORIES.map((d) => d.code).sort());
  });

  it('merges a throw-away area with its exact types, and refuses a key declared twice', () => {
    const demo = defineArea({
      name: 'demo',
      resources: { demo_item: { code: 'demo_item', kind: 'demo' as const } },
      messages: { demoGone: { zh: '演示数据不存在', en: 'No such demo item' } } as const,
      menus: [{ code: 'demo', name: { zh: '演示', en: 'Demo' }, route: '/demo', sort: 100, icon: 'iconfont iconicon_doc' }],
    });
    const merged = areasMessages(coreMessages, [demo] as const);
    const demoKey: keyof typeof merged = 'demoGone';
    // @ts-expect-error the throw-away area does not declare this key
    const missingKey: keyof typeof merged = 'flowTaskMissing';
    expect(merged[demoKey].en).toBe('No such demo item');
    expect(missingKey in merged).toBe(false);
    const demoResources = areasResources([demo] as const);
    assertType<Equals<typeof demoResources.demo_item.kind, 'demo'>>();
    expect(demoResources.demo_item.kind).toBe('demo');
    expect(areasMenus([demo]).map((d) => d.code)).toEqual(['demo']);

    const twin = defineArea({ name: 'twin', resources: { demo_item: { code: 'demo_item' } }, messages: { ok: { zh: '好', en: 'OK' } } });
    expect(() => areasResources([demo, twin])).toThrow('resource demo_item is declared by both area demo and area twin');
    expect(() => areasMessages(coreMessages, [twin])).toThrow('message ok is declared by both the core and area twin');
    expect(() => areasMenus([demo, demo])).toThrow('menu directory demo is declared by both area demo and area demo');
    const misnamed = defineArea({ name: 'misnamed', resources: { other_code: { code: 'demo_item' } } });
    expect(() => areasResources([misnamed])).toThrow('area misnamed: the resource under other_code has the code demo_item');
  });
});
