// Module resolve hooks (registered by hide-peer.mjs): the packages named in SLUICE_HIDE_PEERS
// (comma-separated) cannot be resolved by `import`, and fail with Node's own error, as in an
// application that did not install them.
const hidden = (process.env.SLUICE_HIDE_PEERS ?? '').split(',').filter(Boolean);

export async function resolve(specifier, context, next) {
  if (hidden.some((name) => specifier === name || specifier.startsWith(`${name}/`))) {
    throw Object.assign(new Error(`Cannot find package '${specifier}' imported from ${context.parentURL}`), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
  }
  return next(specifier, context);
}
