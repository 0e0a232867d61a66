/** node-postgres's conversion of a parameter to the text it sends (its own module, untyped by @types/pg) */
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): unknown };
  export default utils;
}
