import Module from 'node:module';

// Imported first (`node --import`): from then on `@opentelemetry/api` cannot be resolved by
// `require` — how sluice loads it (src/trace/trace-api.ts) — and fails with Node's own error, as
// in an application that did not install it. Used by `npm run test:no-otel` and the benchmarks'
// `*-no-otel` variants.
const resolver = Module;
const resolve = resolver._resolveFilename;
resolver._resolveFilename = (request, ...rest) => {
  if (request === '@opentelemetry/api' || request.startsWith('@opentelemetry/api/')) {
    throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' });
  }
  return resolve(request, ...rest);
};
