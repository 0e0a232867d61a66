import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The house rules of docs/architecture.md ("Areas"), over contract/, server/ and web/: no import cycle, core
 * imports no area, an area reaches another only through its index.ts, the engines' functions stay small
 * (scripts/architecture.mjs); and an area has the same name on every side.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Findings {
  problems: string[];
  figures: { files: number; imports: number; cycles: number };
}

function areaFolders(pkg: string): string[] {
  const dir = join(root, pkg, 'src', 'areas');
  return readdirSync(dir).filter((name) => statSync(join(dir, name)).isDirectory()).sort();
}

describe('architecture', () => {
  it('has no import cycle, no core-to-area arrow, no reach into an area, no engine function over 100 lines', () => {
    let out: string;
    try {
      out = execFileSync(process.execPath, [join(root, 'scripts', 'architecture.mjs'), '--json'], { cwd: root, encoding: 'utf8' });
    } catch (e) {
      out = (e as { stdout?: string }).stdout ?? '';
    }
    const findings = JSON.parse(out) as Findings;
    expect(findings.figures.files, 'the checker read the source tree').toBeGreaterThan(300);
    expect(findings.problems).toEqual([]);
    expect(findings.figures.cycles).toBe(0);
  });

  it('names every server and web area after an area of the contract', () => {
    const contract = new Set(areaFolders('contract'));
    expect(areaFolders('server').filter((a) => !contract.has(a))).toEqual([]);
    expect(areaFolders('web').filter((a) => !contract.has(a))).toEqual([]);
  });
});
