#!/usr/bin/env node
// The house rules of the source tree (docs/architecture.md, "Areas"), checked over contract/, server/ and web/:
// - no import cycles (static, type-only and dynamic imports all count: each is an arrow in the design);
// - the core of a package imports no area (only a package's entry files reach the registry `areas/index.ts`);
// - an area reaches another area through its public `index.ts` only, never its insides;
// - no function of the generic engines is over MAX_FUNCTION_LINES lines.
//
//   node scripts/architecture.mjs            prints the findings and the figures, exits 1 on a finding
//   node scripts/architecture.mjs --json     the same as JSON (server/test/architecture.test.ts reads it)
//   node scripts/architecture.mjs --top=20   also lists the largest functions of the whole tree
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { parseAst } from 'rolldown/parseAst';

const MAX_FUNCTION_LINES = 100;

/**
 * Per package: its source root, which of its files may import the area registry (its entry points), and
 * the generic engines whose functions must stay small.
 */
const PACKAGES = [
  { name: 'contract', src: 'contract/src', entries: ['index.ts'], engines: [] },
  { name: 'server', src: 'server/src', entries: ['server.ts', 'main.ts', 'simulate.ts'], engines: ['core/resource/'] },
  // the router and the menu page are the shell's two doors to the areas' screens and routes
  { name: 'web', src: 'web/src', entries: ['main.tsx', 'App.tsx', 'router.tsx', 'shell/MenuPage.tsx', 'i18n/lazy.ts'], engines: ['resource/'] },
];

const { values: opt } = parseArgs({ options: { json: { type: 'boolean', default: false }, top: { type: 'string', default: '0' }, root: { type: 'string' } } });
const root = resolve(opt.root ?? process.cwd());

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'dist') out.push(...sourceFiles(path));
    } else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Every module specifier of a file: imports and re-exports (type-only too) and `import('…')` with a literal. */
function specifiers(ast) {
  const found = [];
  const visit = (node) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const n of node) visit(n);
      return;
    }
    if ((node.type === 'ImportDeclaration' || node.type === 'ExportAllDeclaration' || node.type === 'ExportNamedDeclaration') && node.source) {
      found.push(node.source.value);
    } else if (node.type === 'ImportExpression' && node.source?.type === 'Literal' && typeof node.source.value === 'string') {
      found.push(node.source.value);
    }
    for (const key of Object.keys(node)) if (key !== 'type' && typeof node[key] === 'object') visit(node[key]);
  };
  visit(ast.body);
  return found;
}

const EXTENSIONS = ['.ts', '.tsx', '.mts', '/index.ts', '/index.tsx'];

/** The file a relative specifier names (`./x.js` is `./x.ts` in source), or undefined for packages. */
function resolveSpecifier(from, spec) {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec.replace(/\.(m?js|jsx)$/, ''));
  for (const ext of ['', ...EXTENSIONS]) {
    const candidate = base + ext;
    if (existsSync(candidate) && statSync(candidate).isFile() && /\.(ts|tsx|mts)$/.test(candidate)) return candidate;
  }
  return undefined;
}

/** Start and end lines of every function (declarations, expressions, arrows, methods). */
function functionSpans(ast, text, file) {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const lineOf = (offset) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const spans = [];
  const visit = (node, name) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const n of node) visit(n, name);
      return;
    }
    let own = name;
    if (node.type === 'VariableDeclarator' && node.id?.type === 'Identifier') own = node.id.name;
    else if ((node.type === 'MethodDefinition' || node.type === 'Property' || node.type === 'PropertyDefinition') && node.key?.type === 'Identifier') own = node.key.name;
    if (node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression') {
      const fnName = node.id?.name ?? own ?? '(anonymous)';
      const start = lineOf(node.start);
      spans.push({ file, name: fnName, line: start, lines: lineOf(node.end) - start + 1 });
      own = undefined;
    }
    for (const key of Object.keys(node)) if (key !== 'type' && typeof node[key] === 'object') visit(node[key], own);
  };
  visit(ast.body, undefined);
  return spans;
}

/** Strongly connected components with more than one file (or a file importing itself): Tarjan's algorithm. */
function cycles(graph) {
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const strongConnect = (v) => {
    // iterative, so a long chain cannot overflow the call stack
    const work = [[v, 0]];
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    while (work.length) {
      const frame = work[work.length - 1];
      const [node, i] = frame;
      const next = [...(graph.get(node) ?? [])];
      if (i < next.length) {
        frame[1]++;
        const w = next[i];
        if (!indices.has(w)) {
          indices.set(w, index);
          low.set(w, index);
          index++;
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(node, Math.min(low.get(node), indices.get(w)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === indices.get(node)) {
        const component = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          component.push(w);
        } while (w !== node);
        if (component.length > 1 || graph.get(node)?.has(node)) found.push(component.sort());
      }
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) strongConnect(v);
  return found;
}

/** `areas/<name>/…` of a path inside a package's src, or undefined outside the areas. */
function areaOf(rel) {
  const m = /^areas\/([^/]+)\//.exec(rel);
  return m ? m[1] : undefined;
}

export function check() {
  const problems = [];
  const figures = { files: 0, imports: 0, cycles: 0, filesInCycles: 0, largest: [] };
  const spans = [];
  const cycleList = [];
  for (const pkg of PACKAGES) {
    const src = join(root, pkg.src);
    if (!existsSync(src)) continue;
    const graph = new Map();
    for (const file of sourceFiles(src)) {
      const text = readFileSync(file, 'utf8');
      let ast;
      try {
        ast = parseAst(text, { lang: file.endsWith('x') ? 'tsx' : 'ts' }, file);
      } catch (e) {
        problems.push(`${relative(root, file)}: cannot be parsed (${e.message.split('\n')[0]})`);
        continue;
      }
      figures.files++;
      const rel = relative(src, file).split(sep).join('/');
      const edges = new Set();
      for (const spec of specifiers(ast)) {
        const target = resolveSpecifier(file, spec);
        if (!target || !target.startsWith(src + sep)) continue;
        figures.imports++;
        edges.add(target);
        const targetRel = relative(src, target).split(sep).join('/');
        const from = areaOf(rel);
        const to = areaOf(targetRel);
        const isRegistry = targetRel === 'areas/index.ts';
        if (rel === 'areas/index.ts') {
          // the registry lists the areas: it reaches each through its index.ts
          if (to && targetRel !== `areas/${to}/index.ts`) problems.push(`${pkg.name}: the registry reaches into area ${to} (${targetRel}); import its index.ts`);
        } else if (isRegistry) {
          if (!from && !pkg.entries.includes(rel)) problems.push(`${pkg.name}: ${rel} imports the area registry (only ${pkg.entries.join(', ')} may)`);
          if (from) problems.push(`${pkg.name}: ${rel} (area ${from}) imports the area registry`);
        } else if (to && !from) {
          problems.push(`${pkg.name}: core file ${rel} imports area ${to} (${targetRel})`);
        } else if (to && from && to !== from && targetRel !== `areas/${to}/index.ts`) {
          problems.push(`${pkg.name}: ${rel} reaches into area ${to} (${targetRel}); import its index.ts`);
        }
      }
      graph.set(file, edges);
      for (const span of functionSpans(ast, text, `${pkg.src}/${rel}`)) {
        spans.push(span);
        if (span.lines > MAX_FUNCTION_LINES && pkg.engines.some((e) => rel.startsWith(e))) {
          problems.push(`${span.file}:${span.line} function ${span.name} is ${span.lines} lines (the engine's functions stay within ${MAX_FUNCTION_LINES})`);
        }
      }
    }
    for (const component of cycles(graph)) {
      const names = component.map((f) => relative(root, f).split(sep).join('/'));
      cycleList.push(names);
      problems.push(`${pkg.name}: import cycle of ${names.length} files: ${names.join(' → ')}`);
    }
  }
  figures.cycles = cycleList.length;
  figures.filesInCycles = cycleList.reduce((n, c) => n + c.length, 0);
  spans.sort((a, b) => b.lines - a.lines);
  figures.largest = spans.slice(0, Math.max(10, Number(opt.top) || 0));
  return { problems, figures, cycles: cycleList };
}

const invoked = process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname);
if (invoked) {
  const result = check();
  if (opt.json) console.log(JSON.stringify(result, null, 2));
  else {
    for (const p of result.problems) console.log(`✗ ${p}`);
    const f = result.figures;
    console.log(`${f.files} files, ${f.imports} imports between them, ${f.cycles} import cycles (${f.filesInCycles} files in them)`);
    console.log('largest functions:');
    for (const s of f.largest) console.log(`  ${String(s.lines).padStart(4)}  ${s.file}:${s.line} ${s.name}`);
    console.log(result.problems.length ? `${result.problems.length} problems` : 'no problems');
  }
  process.exit(result.problems.length ? 1 : 0);
}
