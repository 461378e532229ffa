/** The package's entry point: the client library (`import { HerdrClient } from 'herdr'`). */
export { ConnectionError, HerdrClient, type HerdrClientOptions, HerdrConnection, HerdrError } from './cli/client.js';
export type { MethodInput, MethodName, MethodResults } from './protocol/methods.js';
export type { ErrorCode } from './protocol/errors.js';
export { resolveSocketPath } from './protocol/socket-path.js';
