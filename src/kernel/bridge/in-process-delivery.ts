import type { HostDelivery } from '../host/host-delivery.js';
import type { Bridge } from './bridge.js';

/**
 * The in-process entry of each bridge made by `createBridge`: a host's delivery (a macrotask, as
 * `host.connect` hands it) for an outcome an in-process host built itself (a typed
 * `HostcallOutcome`: a stream's chunk around a scalar goes straight to its stream, anything else is
 * checked with {@link checkHostOutcome} instead of a full decode). Only {@link connectExtension}
 * uses it, as the delivery it connects; it is not exported from the package, so everything else —
 * outcomes in the bridge shape, wire frames — still goes through `completeHostcall` and its zod
 * decode. (Internal to the bridge.)
 */
export const inProcessDelivery = new WeakMap<Bridge, HostDelivery>();
