export * from './chunk-marbles.js';
export * from './chunk-matcher.js';
export * from './chunk-test-scheduler.js';
export type { FakeExit, FakeProcessScript } from './compile-script.js';
export * from './demand-marbles.js';
export { type ExitEventExpectation, type ExitEventFields, exitEvent } from './exit-event.js';
export * from './fake-exec.js';
export * from './scripted-producer.js';
export * from './virtual-host.js';
