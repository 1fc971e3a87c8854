import Module from 'node:module';

// Imported first by a `*-no-otel` variant's child: from then on `@opentelemetry/api` cannot be
// resolved by `require` (how sluice loads it, src/trace/trace-api.ts), with Node's own error, as
// in an application that did not install it. Measures the build with the API absent.
const resolver = Module as unknown as {
  _resolveFilename: (request: string, ...rest: unknown[]) => string;
};
const resolve = resolver._resolveFilename;
resolver._resolveFilename = (request, ...rest) => {
  if (request === '@opentelemetry/api' || request.startsWith('@opentelemetry/api/')) {
    throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' });
  }
  return resolve(request, ...rest);
};
