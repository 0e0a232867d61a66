export * from './passwords.js';
export * from './tokens.js';
