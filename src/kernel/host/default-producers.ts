import { execProducer } from './exec-producer.js';
import { httpProducer } from './http-producer.js';
import type { StreamProducer } from './stream-producer.js';

/** The producers {@link createHost} uses unless told otherwise: the `exec` and `http` sources. */
export const defaultProducers: Readonly<Partial<Record<'exec' | 'http', StreamProducer>>> = {
  exec: execProducer,
  http: httpProducer,
};
