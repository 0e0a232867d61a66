#!/usr/bin/env node
// Runs every test: type checks, the server's API tests, then the browser tests against the built console.
// Ends with one line "N passed, N failed" counting every test case that ran.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const reports = mkdtempSync(join(tmpdir(), 'console-test-report-'));
let passed = 0;
let failed = 0;
const failures = [];

function run(label, cmd, args, opts = {}) {
  console.log(`\n▶ ${label}`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...opts.env } });
  return res.status === 0;
}

function vitest(label, project, report) {
  const out = join(reports, `${report}.json`);
  const ok = run(label, 'npx', ['vitest', 'run', '--root', project, '--reporter=default', '--reporter=json', `--outputFile=${out}`]);
  if (existsSync(out)) {
    const r = JSON.parse(readFileSync(out, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    if (r.numFailedTests || !ok) failures.push(label);
  } else {
    failed += 1;
    failures.push(`${label} (did not run)`);
  }
}

// TEST_DATABASE_ONLY=1 (the CI's second pass, on PostgreSQL and Redis): only the suites that touch a database,
// the server's and the browser's; the type checks and the web unit tests ran in the first pass on the same code
const databaseOnly = process.env.TEST_DATABASE_ONLY === '1';

const typecheck = databaseOnly || run('type check', 'npx', ['tsc', '-p', 'contract']) && run('type check server', 'npx', ['tsc', '-p', 'server'])
  && (!existsSync(join(root, 'web/tsconfig.json')) || run('type check web', 'npx', ['tsc', '-p', 'web']))
  && (!existsSync(join(root, 'e2e/tsconfig.json')) || run('type check e2e', 'npx', ['tsc', '-p', 'e2e']));
if (databaseOnly) console.log('\n▶ type check: skipped (TEST_DATABASE_ONLY)');
else if (typecheck) passed += 1;
else {
  failed += 1;
  failures.push('type check');
}

vitest('server API tests', 'server', 'server');
if (databaseOnly) console.log('\n▶ web unit tests: skipped (TEST_DATABASE_ONLY)');
else vitest('web unit tests', 'web', 'web');

if (existsSync(join(root, 'e2e/vitest.config.ts'))) {
  if (run('build', 'npm', ['run', 'build'])) vitest('browser tests', 'e2e', 'e2e');
  else {
    failed += 1;
    failures.push('build');
  }
}

rmSync(reports, { recursive: true, force: true });
console.log(`\n${failures.length ? `Failed: ${failures.join(', ')}` : 'All suites green'}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
