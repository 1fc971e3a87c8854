export * from './create-supervisor.js';
export * from './parse-runner-line.js';
export * from './runner-channel.js';
export * from './runner-exit-info.js';
export * from './runner-handle.js';
export * from './runner-message.js';
