/** The package's entry point: the client library (`import { HerdrClient } from 'herdr'`). */
export { type AgentStateLine, ConnectionError, HerdrClient, type HerdrClientOptions, HerdrConnection, HerdrError, PaneOutputStream, Subscription } from './client/client.js';
export type { MethodInput, MethodName, MethodResults, SubscriptionSpec } from './protocol/methods.js';
export type { TypedEventLine } from './protocol/events.js';
export type { PaneStreamLine, PaneStreamStarted } from './protocol/pane-stream.js';
export type { ErrorCode } from './protocol/errors.js';
export { resolveSocketPath } from './protocol/socket-path.js';
