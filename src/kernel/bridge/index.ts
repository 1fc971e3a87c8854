export * from './connect-extension.js';
export * from './create-bridge.js';
export * from './extension-api.js';
export * from './hostcall-stream.js';
