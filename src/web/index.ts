export { createWebHandler, type WebHandler, type WebHandlerOptions } from './create-web-handler.js';
export { markTerminalSize } from './mark-terminal-size.js';
export { RegistryEntry } from './registry-entry.js';
export { isRunLimitError, RunLimitError, type RunLimitInfo } from './run-limit-error.js';
export { RunRegistry, type RunRegistryOptions } from './run-registry.js';
export { startWebServer, type WebServer, type WebServerOptions } from './start-web-server.js';
export { createWebGuard, type WebGuard, type WebGuardOptions, type WebRefusal } from './web-guard.js';
