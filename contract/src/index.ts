export * from './i18n.js';
export * from './messages.js';
export * from './envelope.js';
export * from './filters.js';
export * from './resource.js';
export * from './resources/index.js';
export * from './paths.js';
export * from './shell.js';
