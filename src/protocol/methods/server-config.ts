/**
 * `server.agent_manifests`, `server.reload_agent_manifests` and `server.reload_config`
 * (herdr's current protocol; docs/protocol.md §5, §10.8): the agent detection manifests in
 * use, read again without a restart, and what a configuration reload does here. Spread into
 * `METHODS`.
 */
import { z } from 'zod';
import type { MethodEntry } from '../params.js';
import { empty } from '../params.js';

/** herdr's AgentManifestInfo: one agent's detection rules and where they come from. */
export const agentManifestInfoSchema = z.object({
  agent: z.string().describe('the agent label its rules are for'),
  source: z.string().describe('`bundled` (built into the server), or the manifest file\'s path'),
  source_kind: z
    .enum(['bundled', 'local override', 'local'])
    .describe('`bundled`; `local override`: a user\'s file replacing the rules of an agent the server knows; `local` (**ext**): a user\'s file describing an agent the server did not know'),
  active_version: z.string().optional().describe('the manifest\'s `version`, when it has one'),
  local_override_shadowing_remote: z.boolean().describe('always false: this server fetches no remote manifests'),
  warning: z.string().optional().describe('a manifest file for this agent that is not in use, and why'),
  process_names: z.array(z.string()).describe('EXT: the process names the agent is identified by (docs/protocol.md §10.1)'),
  rules: z.number().int().min(0).describe('EXT: how many screen rules it has'),
});
export type AgentManifestInfo = z.output<typeof agentManifestInfoSchema>;

export const CONFIG_RELOAD_STATUSES = ['applied', 'partial', 'failed'] as const;

export const SERVER_CONFIG_METHODS = {
  'server.agent_manifests': {
    params: empty,
    result: z.object({
      type: z.literal('agent_manifest_status'),
      manifests: z.array(agentManifestInfoSchema),
      directory: z.string().optional().describe('EXT: the directory user manifests are read from (absent: none is read)'),
    }),
    changesState: false,
  },
  'server.reload_agent_manifests': {
    params: empty,
    result: z.object({ type: z.literal('agent_manifest_reload'), manifests: z.array(agentManifestInfoSchema) }),
    changesState: false,
  },
  'server.reload_config': {
    params: empty,
    result: z.object({
      type: z.literal('config_reload'),
      status: z.enum(CONFIG_RELOAD_STATUSES).describe('`applied`: every setting read is in use; `partial`: some are, the diagnostics say which not; `failed`: nothing changed'),
      diagnostics: z.array(z.string()).describe('what was not applied, and why'),
    }),
    changesState: false,
  },
} as const satisfies Record<string, MethodEntry>;
