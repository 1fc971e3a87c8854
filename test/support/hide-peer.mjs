import { register } from 'node:module';

// Imported first (`node --import`): from then on the optional peers named in SLUICE_HIDE_PEERS
// cannot be imported, as in an application that did not install them (hide-otel.mjs does the
// same for `require` of `@opentelemetry/api`).
register('./hide-peer-hooks.mjs', import.meta.url);
