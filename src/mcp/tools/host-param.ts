/** The `host` argument of the tools that make something new (start_agent, run_command): which server, with `--host`. */
import { z } from 'zod';

export const hostParam = z.string().min(1).max(256).describe('which server, when herdr mcp drives several (--host): its host name, or "local"; default the local one');
