/**
 * Stands in for `resize-observer-polyfill` (see vite.config.ts). That package hands out the browser's own
 * ResizeObserver whenever there is one, which every browser the build targets (es2022) has; its 32 KB
 * fallback implementation would never run.
 */
export default globalThis.ResizeObserver;
