import react from '@vitejs/plugin-react';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, loadEnv, type Plugin } from 'vite';

/** The version this bundle is built as: BUILD_VERSION (as for the server's /version.json), else the package's. */
function buildVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return process.env.BUILD_VERSION ?? pkg.version;
}

const ANTD_BUTTON_TOKEN = /[\\/]antd[\\/]es[\\/]button[\\/]style[\\/]token\.js$/;

/**
 * antd's Button style takes `isBright` from the colour picker's presets panel, a module that also imports
 * Collapse and the picker itself: all of it then loaded with the first Button of every page (~6 KB gzip).
 * Its import there resolves to a copy of that one function (src/vendor/antdIsBright.ts, unit-tested against
 * antd's own).
 */
function antdButtonIsBright(): Plugin {
  const copy = fileURLToPath(new URL('./src/vendor/antdIsBright.ts', import.meta.url));
  return {
    name: 'antd-button-is-bright',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === '../../color-picker/components/ColorPresets' && importer && ANTD_BUTTON_TOKEN.test(importer)) return copy;
      return null;
    },
  };
}

/**
 * A component module that a library imports at load time but renders rarely becomes a lazy component: its code
 * loads when it is first rendered (with its props and ref), and nothing shows while it loads. `quiet`: a failed
 * load shows nothing either (else the error goes to the nearest error boundary).
 */
function lazyComponents(name: string, importer: RegExp, sources: ReadonlySet<string>, quiet: boolean): Plugin {
  const prefix = `\0${name}:`;
  return {
    name,
    enforce: 'pre',
    async resolveId(source, from) {
      if (!from || !sources.has(source) || !importer.test(from)) return null;
      const real = await this.resolve(source, from, { skipSelf: true });
      return real && `${prefix}${real.id}`;
    },
    load(id) {
      if (!id.startsWith(prefix)) return null;
      const real = JSON.stringify(id.slice(prefix.length));
      return [
        `import { createElement, forwardRef, lazy, Suspense } from 'react';`,
        `const Real = lazy(() => import(${real})${quiet ? '.catch(() => ({ default: () => null }))' : ''});`,
        `export default forwardRef(function LazyComponent(props, ref) { return createElement(Suspense, { fallback: null }, createElement(Real, { ...props, ref })); });`,
      ].join('\n');
    },
  };
}

/**
 * antd's Result imports its three large illustrations (403, 404, 500: ~10 KB gzip with them) at load time,
 * and the route error boundary (in the entry chunk, so on every page) uses Result. Each illustration becomes
 * a lazy component instead: its code loads when a Result shows it (the /403, /404, /500 pages, a page that
 * crashed), into `.ant-result-image`, whose size is fixed by the Result's style. A failed load shows no image.
 */
const antdResultLazyImages = () =>
  lazyComponents('antd-result-lazy-image', /[\\/]antd[\\/]es[\\/]result[\\/]index\.js$/, new Set(['./noFound', './serverError', './unauthorized']), true);

/**
 * ProField (under every ProTable's search form and ProForm) imports the component of every value type at load
 * time. The console's definitions use text, select, date and date-range fields; the colour picker (with its
 * sketch palette and two colour libraries), image, cascader, rate, slider and segmented fields were ~130 KB
 * (~40 KB gzip) of the list page's first chunk. They load when a field of that type is first rendered.
 */
const proFieldLazyRareTypes = () =>
  lazyComponents('pro-field-lazy-rare-types', /[\\/]@ant-design[\\/]pro-field[\\/]es[\\/]index\.js$/,
    new Set(['./components/ColorPicker', './components/Image', './components/Cascader', './components/Rate', './components/Slider', './components/Segmented']), false);

const PRO_PROVIDER_INTL = /[\\/]@ant-design[\\/]pro-provider[\\/]es[\\/]intl\.js$/;
const PRO_LOCALES_KEPT = new Set(['./locale/zh_CN', './locale/en_US']);

/**
 * ProComponents' intl module imports all its 33 locale tables (~35 KB on the list page). The console speaks zh
 * and en (resource/proIntl.ts picks zhCNIntl or enUSIntl); any other table resolves to the en_US one.
 */
function proProviderTwoLocales(): Plugin {
  return {
    name: 'pro-provider-two-locales',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !PRO_PROVIDER_INTL.test(importer) || !source.startsWith('./locale/') || PRO_LOCALES_KEPT.has(source)) return null;
      return this.resolve('./locale/en_US', importer, { skipSelf: true });
    },
  };
}

/**
 * The antd styles of the default theme as a CSS file (scripts/antdStaticCss.ts), linked first in index.html:
 * cssinjs then neither generates nor inserts them at run time. Built in a child process so that antd runs as
 * in production (its class hash depends on NODE_ENV). The dev server keeps generating them in the browser.
 */
function antdStaticStyle(): Plugin {
  let fileName = '';
  return {
    name: 'antd-static-style',
    apply: 'build',
    buildStart() {
      const css = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./scripts/antdStaticCss.ts', import.meta.url))], {
        env: { ...process.env, NODE_ENV: 'production' },
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      if (!css.includes('.data-ant-cssinjs-cache-path{')) throw new Error('antdStaticCss.ts wrote no cssinjs cache map');
      fileName = `assets/antd-${createHash('sha256').update(css).digest('hex').slice(0, 10)}.css`;
      this.emitFile({ type: 'asset', fileName, source: css });
    },
    transformIndexHtml() {
      return [{ tag: 'link', attrs: { rel: 'stylesheet', href: `/${fileName}` }, injectTo: 'head-prepend' }];
    },
  };
}

export default defineConfig(({ mode }) => {
  // The API server that the dev server and `vite preview` forward to (CONSOLE_API_URL overrides it).
  const apiTarget = loadEnv(mode, '.', 'CONSOLE_').CONSOLE_API_URL ?? 'http://127.0.0.1:8080';
  const proxy = {
    '/api': { target: apiTarget },
    '/version.json': { target: apiTarget },
    '/sc': { target: apiTarget },
    '/tc': { target: apiTarget },
    '/files': { target: apiTarget },
  };
  return {
    plugins: [react(), antdStaticStyle(), antdButtonIsBright(), antdResultLazyImages(), proFieldLazyRareTypes(), proProviderTwoLocales()],
    resolve: {
      alias: [
        // antd's resize observers: the browser's own ResizeObserver instead of the polyfill's copy of it
        { find: /^resize-observer-polyfill$/, replacement: fileURLToPath(new URL('./src/vendor/nativeResizeObserver.ts', import.meta.url)) },
        // the contract of this checkout (the workspace link may point at another worktree's, node_modules shared)
        { find: /^@console\/contract$/, replacement: fileURLToPath(new URL('../contract/src/index.ts', import.meta.url)) },
        { find: /^@console\/contract\/(.+)$/, replacement: `${fileURLToPath(new URL('../contract/src/', import.meta.url))}$1.ts` },
      ],
    },
    define: { __BUILD_VERSION__: JSON.stringify(buildVersion()) },
    server: { host: '127.0.0.1', port: 5173, proxy },
    preview: { host: '127.0.0.1', port: 4173, proxy },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      target: 'es2022',
      // The table pages' chunk (antd + ProComponents) is large by nature; it loads lazily with them.
      chunkSizeWarningLimit: 1200,
      rolldownOptions: {
        treeshake: {
          // The contract's modules build a few zod schemas at load time (resource.ts: idInput, idListInput,
          // booleanInput; action.ts: idsParamSchema, okOutput). The console never validates with them, but
          // a call at the top of a module is kept unless known pure, and with it all of zod (~20 KB gzip) on
          // the first page (it imports the notice definition). Building a schema has no side effect.
          // defineResource / defineActions only copy their argument: without them marked, every definition the
          // desk area's index re-exports (and their schemas) stayed with the notice definition on the first page.
          manualPureFunctions: ['z', 'idListInput', 'defineResource', 'defineActions'],
          // rc-field-form's index attaches Field, List, useForm… to its default export at load time, so any
          // import of it (antd's ContextIsolator, used by Dropdown/Tooltip/Modal, only wants FormProvider)
          // kept the whole form engine and async-validator (~14 KB gzip) on every page. Those assignments
          // only touch the index's own object: when nothing of the index itself is used, it can go.
          // The colour picker's index is a plain barrel: antd's colour helpers (Button's style uses them)
          // then reach the Color class without the picker component.
          moduleSideEffects: [
            { test: /[\\/]rc-field-form[\\/]es[\\/]index\.js$/, sideEffects: false },
            { test: /[\\/]@rc-component[\\/]color-picker[\\/]es[\\/]index\.js$/, sideEffects: false },
          ],
        },
      },
    },
  };
});
