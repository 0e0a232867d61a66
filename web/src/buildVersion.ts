declare const __BUILD_VERSION__: string;

/** The version this bundle was built as (vite.config.ts); the server's /version.json names the deployed one. */
export const BUILD_VERSION: string = __BUILD_VERSION__;
