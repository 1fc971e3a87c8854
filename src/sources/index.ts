export * from './exec.js';
export * from './http.js';
