/** A server `herdr mcp` drives: the local one, or one over ssh (`--host`). */
import type { HerdrClient } from '../client/client.js';

export interface Host {
  /** undefined for the local server. */
  readonly name: string | undefined;
  readonly client: HerdrClient;
}
