/**
 * A real agent CLI set up as a person would for a local model: a fresh HOME holding its own
 * configuration, pointed at the scripted model server (harness/model) with a key of its own,
 * its project trusted, its first-run dialogs, update checks and telemetry off, and every
 * request for the network sent to the model server's proxy, which refuses it at once. The
 * facts for each CLI (docs/agents.md) come from running it against that server.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelServer } from '../model/server.js';
import { type AgentCli, type RealAgent, binDir, cliOf } from './catalog.js';

export interface PreparedAgent {
  cli: AgentCli;
  /** The environment to start it in (agent.start's `env`), on top of the server's. */
  env: Record<string, string>;
  /** The argv: its bin by absolute path, and the arguments the test needs. */
  command: string[];
  home: string;
  /** The API key it sends: the model server's name for this agent's requests. */
  key: string;
}

export interface AgentSetup {
  model: ModelServer;
  /** A folder of the test's own: HOME goes in it. */
  dir: string;
  /** Where the agent works (trusted in its configuration). */
  project: string;
  /** Distinguishes agents of one test at the model server. */
  key: string;
  /** Arguments after the bin. */
  args?: string[];
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

/** Every CLI's way to the network goes to the model server, which refuses what is not for it. */
function networkEnv(model: ModelServer): Record<string, string> {
  return {
    HTTPS_PROXY: model.url,
    HTTP_PROXY: model.url,
    https_proxy: model.url,
    http_proxy: model.url,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
  };
}

/**
 * A permission gate for pi, which has none of its own: its own select dialog before every
 * bash call, as pi's extension docs show. Written into the HOME as a pi extension.
 */
const PI_PERMISSION_GATE = `// Written by herdr's test harness: asks before every bash call with pi's own select dialog.
export default function (pi) {
  pi.on('tool_call', async (event, ctx) => {
    if (event.toolName !== 'bash' || !ctx.hasUI) return undefined;
    const choice = await ctx.ui.select(\`Allow bash: \${String(event.input?.command ?? '')}?\`, ['Yes', 'No']);
    return choice === 'Yes' ? undefined : { block: true, reason: 'Blocked by user' };
  });
}
`;

type Configure = (setup: AgentSetup, home: string) => Record<string, string>;

const CONFIGURE: Record<RealAgent, Configure> = {
  claude: ({ model, project, key }, home) => {
    write(
      join(home, '.claude.json'),
      json({
        hasCompletedOnboarding: true,
        theme: 'dark',
        numStartups: 5,
        autoUpdates: false,
        // The key's last 20 characters, approved: no "use this API key?" question.
        customApiKeyResponses: { approved: [key.slice(-20)], rejected: [] },
        projects: { [project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
      }),
    );
    return {
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: key,
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    };
  },
  codex: ({ model, project }, home) => {
    write(
      join(home, '.codex', 'config.toml'),
      [
        'model = "gpt-5.5"',
        'model_provider = "scripted"',
        'approval_policy = "on-request"',
        'check_for_update_on_startup = false',
        '[model_providers.scripted]',
        'name = "Scripted"',
        `base_url = "${model.url}/v1"`,
        'env_key = "HERDR_SCRIPTED_KEY"',
        'wire_api = "responses"',
        '[features]',
        // Its plugin sync reaches github.com and chatgpt.com at every start.
        'plugins = false',
        '[analytics]',
        'enabled = false',
        `[projects."${project}"]`,
        'trust_level = "trusted"',
        // Else it offers a newer model on the first key pressed.
        '[notice.model_migrations]',
        '"gpt-5.5" = "gpt-6-sol"',
        '',
      ].join('\n'),
    );
    return { HERDR_SCRIPTED_KEY: '' };
  },
  opencode: ({ model, key }, home) => {
    const config = join(home, '.config', 'opencode');
    write(
      join(config, 'opencode.json'),
      json({
        provider: { scripted: { npm: '@ai-sdk/openai-compatible', name: 'Scripted', options: { baseURL: `${model.url}/v1`, apiKey: key }, models: { m1: { name: 'Scripted M1' } } } },
        model: 'scripted/m1',
        small_model: 'scripted/m1',
        autoupdate: false,
        share: 'disabled',
        permission: { bash: 'ask' },
      }),
    );
    // It installs its plugin package into every config folder at each start: from the cache only.
    write(join(config, '.npmrc'), 'offline=true\n');
    return {
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_STATE_HOME: join(home, '.local', 'state'),
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      OPENCODE_DISABLE_SHARE: '1',
    };
  },
  pi: ({ model, key }, home) => {
    const agent = join(home, '.pi', 'agent');
    write(
      join(agent, 'models.json'),
      json({
        providers: {
          scripted: {
            baseUrl: `${model.url}/v1`,
            api: 'openai-completions',
            apiKey: key,
            compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
            models: [{ id: 'scripted-model', reasoning: false, contextWindow: 128000, maxTokens: 8000 }],
          },
        },
      }),
    );
    write(join(agent, 'settings.json'), json({ defaultProvider: 'scripted', defaultModel: 'scripted-model', lastChangelogVersion: cliOf('pi').version }));
    write(join(agent, 'extensions', 'permission-gate.ts'), PI_PERMISSION_GATE);
    // Offline: no version check, no install ping, no fd or ripgrep download.
    return { PI_OFFLINE: '1' };
  },
  qwen: ({ model, key }, home) => {
    write(
      join(home, '.qwen', 'settings.json'),
      json({
        security: { auth: { selectedType: 'openai' }, folderTrust: { enabled: false } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { enableAutoUpdate: false },
        // Its default, auto mode, asks a classifier model instead of the user.
        tools: { approvalMode: 'default', useRipgrep: false },
        memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
        // A suggestion in the empty input box is what a bare Enter would submit.
        ui: { enableFollowupSuggestions: false },
      }),
    );
    return { OPENAI_BASE_URL: `${model.url}/v1`, OPENAI_API_KEY: key, OPENAI_MODEL: 'scripted-model' };
  },
  gemini: ({ model, key }, home) => {
    write(
      join(home, '.gemini', 'settings.json'),
      json({
        security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
        privacy: { usageStatisticsEnabled: false },
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      }),
    );
    return { GOOGLE_GEMINI_BASE_URL: model.url, GEMINI_API_KEY: key };
  },
};

/** A fresh HOME for `agent` in `setup.dir`, its configuration, and how to start it. */
export function prepareAgent(agent: RealAgent, setup: AgentSetup): PreparedAgent {
  const cli = cliOf(agent);
  const home = join(setup.dir, `${agent}-home`);
  mkdirSync(home, { recursive: true });
  mkdirSync(setup.project, { recursive: true });
  const own = CONFIGURE[agent](setup, home);
  // codex reads its key from the variable its provider names.
  if ('HERDR_SCRIPTED_KEY' in own) own.HERDR_SCRIPTED_KEY = setup.key;
  const env = {
    HOME: home,
    PATH: `${binDir(cli)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    ...networkEnv(setup.model),
    ...own,
  };
  return { cli, env, command: [join(binDir(cli), cli.bin), ...(setup.args ?? [])], home, key: setup.key };
}
