// The agent's public entry (`@flotilla/agent`): what the server's integration tests, the
// e2e tests and the benchmarks drive. Other packages import these, never `src/…` files.
export { normalizeConfig, type AgentConfig } from './core/config.js';
export type { Device, DeviceEvent } from './core/device.js';
export { POLL_JITTER } from './core/device.js';
export { startAgent, type RunAgentOptions, type RunningAgent } from './host/run-agent.js';
export { WsConnection, WsUpgradeError, type WsHandlers } from './net/ws-client.js';
export { latencyBetween, latencyPercentile, type LatencySnapshot } from './simulate/latency-stats.js';
export { startSimulation, type SimulateOptions, type Simulation, type SimulationStats, type SimulatedApplied } from './simulate/simulator.js';
export type { ConfigHookDocument } from './core/device-config.js';
export { LABEL as CONTAINER_LABELS, type ContainerHost } from './core/containers.js';
export { EngineError, type EngineKind } from './host/engine.js';
export { LogStream, type LogStreamOptions, type LogStreamStats } from './core/log-stream.js';
export { ContainerLogs, type ContainerLogsOptions } from './host/container-logs.js';
