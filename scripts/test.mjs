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
const failedTests = [];

function run(label, cmd, args, opts = {}) {
  console.log(`\n▶ ${label}`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...opts.env } });
  return res.status === 0;
}

const firstLine = (text) => (text ?? '').split('\n').find((l) => l.trim())?.trim().slice(0, 300) ?? '';

function vitest(label, project, report, files = []) {
  const out = join(reports, `${report}.json`);
  const ok = run(label, 'npx', ['vitest', 'run', '--root', project, '--reporter=default', '--reporter=json', `--outputFile=${out}`, ...files]);
  if (existsSync(out)) {
    const r = JSON.parse(readFileSync(out, 'utf8'));
    passed += r.numPassedTests;
    // a suite that fails before its tests (its beforeAll) fails no test of its own: it counts as one
    const suitesOnly = !ok && r.numFailedTests === 0 ? Math.max(1, r.numFailedTestSuites ?? 0) : 0;
    failed += r.numFailedTests + suitesOnly;
    if (r.numFailedTests || !ok) failures.push(label);
    for (const file of r.testResults ?? []) {
      const name = file.name.slice(root.length);
      const broken = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const t of broken) failedTests.push(`${name} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
      if (!broken.length && file.status === 'failed') failedTests.push(`${name}: ${firstLine(file.message)}`);
    }
  } else {
    failed += 1;
    failures.push(`${label} (did not run)`);
  }
}

// TEST_DATABASE_ONLY=1 (the CI's second pass, on PostgreSQL and Redis): the server's suites, and the browser
// suites whose flows lean on what the database and Redis keep (sessions, grants, tenants, read state, imports and
// exports); the type checks, the web unit tests and the browser's look-and-feel suites ran in the first pass on the
// same code, and so did the sweep of every screen (each resource's list is read on PostgreSQL by the server's
// conformance suite)
const databaseOnly = process.env.TEST_DATABASE_ONLY === '1';
const DATABASE_BROWSER_SUITES = ['tests/session.test.ts', 'tests/users-roles.test.ts', 'tests/tenants.test.ts', 'tests/notice-bell.test.ts', 'tests/production.test.ts'];

const typecheck = databaseOnly || run('type check', 'npx', ['tsc', '-p', 'contract']) && run('type check server', 'npx', ['tsc', '-p', 'server'])
  && (!existsSync(join(root, 'web/tsconfig.json')) || run('type check web', 'npx', ['tsc', '-p', 'web']))
  && (!existsSync(join(root, 'e2e/tsconfig.json')) || run('type check e2e', 'npx', ['tsc', '-p', 'e2e']));
if (databaseOnly) console.log('\n▶ type check: skipped (TEST_DATABASE_ONLY)');
else if (typecheck) passed += 1;
else {
  failed += 1;
  failures.push('type check');
}

// the fuzz sends hostile input to every route: the same handlers and the same PostgreSQL parser (PGlite is
// PostgreSQL) answer it in the first pass, so the second leaves it out
vitest('server API tests', 'server', 'server', databaseOnly ? ['--exclude', 'test/fuzz.test.ts'] : []);
if (databaseOnly) console.log('\n▶ contract and web unit tests: skipped (TEST_DATABASE_ONLY)');
else {
  vitest('contract unit tests', 'contract', 'contract');
  vitest('web unit tests', 'web', 'web');
}

// TEST_REUSE_BUILD=1 (the CI's second pass, on the tree the first pass built): the console built then is used
const reuseBuild = process.env.TEST_REUSE_BUILD === '1' && existsSync(join(root, 'server/dist/main.js')) && existsSync(join(root, 'web/dist/index.html'));
if (existsSync(join(root, 'e2e/vitest.config.ts'))) {
  if (reuseBuild) console.log('\n▶ build: reused (TEST_REUSE_BUILD)');
  if (reuseBuild || run('build', 'npm', ['run', 'build'])) vitest('browser tests', 'e2e', 'e2e', databaseOnly ? DATABASE_BROWSER_SUITES : []);
  else {
    failed += 1;
    failures.push('build');
  }
}

rmSync(reports, { recursive: true, force: true });
// the run's log is long: the tests that failed are named again at its end, where a truncated log still shows them
for (const t of failedTests) console.log(`✗ ${t}`);
console.log(`\n${failures.length ? `Failed: ${failures.join(', ')}` : 'All suites green'}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
