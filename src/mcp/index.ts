/**
 * sluice/mcp — sluice's tools over the Model Context Protocol, on the official SDK
 * (`@modelcontextprotocol/sdk`), which only this entry point loads.
 */
export * from './from-mcp-tool-call.js';
export * from './mcp-tool-error.js';
export * from './run-store-event-store.js';
export * from './serve-mcp.js';
export * from './serve-mcp-http.js';
export * from './serve-mcp-options.js';
