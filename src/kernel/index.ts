/**
 * `sluice/kernel`: the host and extension sides of the hostcall protocol, the tools and the
 * supervisor (docs/protocol.md) — what a user calls and the types written against it. The parts
 * these are built from (payload schemas, the default producers, the host stream) stay internal;
 * the errors a user catches (`SluiceError`, `InvalidFrameError`, `InvalidRequestError`,
 * `SequenceError`) come from `sluice`.
 */
export {
  type Bridge,
  type BridgeOptions,
  type BridgeStats,
  type BridgeTransport,
  createBridge,
} from './bridge/bridge.js';
export { type ConnectedExtension, connectExtension } from './bridge/connect-extension.js';
export {
  createExtensionApi,
  type ExecCallOptions,
  type ExecCallResult,
  type ExtensionApi,
  type HttpCallOptions,
  type HttpCallResult,
} from './bridge/extension-api.js';
export { HostcallStream } from './bridge/hostcall-stream.js';
export { createHost } from './host/create-host.js';
export type {
  CancelReason,
  Host,
  HostConnection,
  HostcallContext,
  HostcallHandler,
  HostDelivery,
  HostLogger,
  HostOptions,
  HostStream,
  StreamProducer,
} from './host/host.js';
export { bridgeCodec } from './protocol/bridge-codec.js';
export type { DecodeResult, OutcomeCodec } from './protocol/define-codec.js';
export {
  createFrameDecoder,
  type DecodeFramesConfig,
  decodeFrames,
  type FrameDecoder,
  type FrameDecoderConfig,
} from './protocol/frame-decoder.js';
export { encodeFrame, type HostcallFrame } from './protocol/hostcall-frame.js';
export type {
  HostcallFailure,
  HostcallOutcome,
  HostcallStreamChunk,
  HostcallSuccess,
} from './protocol/hostcall-outcome.js';
export type { HostcallKind, HostcallPayload, HostcallRequest } from './protocol/hostcall-request.js';
export type { JsonValue } from './protocol/json-value.js';
export { serdeCodec } from './protocol/serde-codec.js';
export {
  createMacrotaskScheduler,
  type Macrotask,
  type MacrotaskScheduler,
  type MacrotaskSchedulerOptions,
} from './scheduler/macrotask-scheduler.js';
export {
  createSupervisor,
  type SpawnRunnerOptions,
  type Supervisor,
  type SupervisorOptions,
} from './supervisor/create-supervisor.js';
export type {
  InProcessRunner,
  MalformedLine,
  RunnerChannel,
  RunnerExitInfo,
  RunnerHandle,
  RunnerToolCall,
  RunnerWaitOptions,
} from './supervisor/runner.js';
export type { RunnerMessage } from './supervisor/start-runner.js';
export { type DispatchToolCallOptions, dispatchToolCall } from './tools/dispatch-tool-call.js';
export { createExecTool } from './tools/exec-tool.js';
export { type ExecToolArgs, type ExecToolConfig, execToolArgsSchema } from './tools/exec-tool-args.js';
export {
  type ExecToolResult,
  type ExecToolUsage,
  type ExecToolWireResult,
  execToolResultSchema,
} from './tools/exec-tool-result.js';
export type { ToolCallMessage, ToolChunk, ToolContext, ToolDefinition, ToolResult } from './tools/tool.js';
export { createToolRegistry, registerBuiltinTools, type ToolRegistry } from './tools/tool-registry.js';
