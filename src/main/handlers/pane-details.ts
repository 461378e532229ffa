/**
 * pane.process_info, pane.rename and reported metadata (docs/protocol.md §5):
 * what runs in a pane (read from /proc, asynchronously), the pane's own label,
 * and display-only tokens (metadata.ts).
 */
import { ProtocolError } from '../../protocol/errors.js';
import type { MethodParams } from '../../protocol/methods.js';
import type { ProcessInfo } from '../../protocol/methods/pane-details.js';
import { paneProcesses } from '../../os/process-info.js';
import { currentPaneIds, errorNaming, paneIds, withCurrentView } from '../ids.js';
import type { MetadataReport, ReportedMetadata } from '../metadata.js';
import type { PaneRecord, Registry } from '../registry.js';
import type { Router } from '../router.js';
import { paneInfo } from '../wire-views.js';
import { paneUpdated, workspaceMetadataUpdated } from '../change-events.js';

const OK = { type: 'ok' } as const;

async function processInfo(pane: PaneRecord): Promise<ProcessInfo> {
  const ids = paneIds(pane);
  const found = await paneProcesses(pane.pid);
  return withCurrentView<ProcessInfo>({
    pane_id: ids.pane_id,
    stable_id: ids.stable_id,
    shell_pid: found.shellPid,
    shell_argv: found.shellArgv,
    foreground_process_group_id: found.foregroundGroup,
    tty: found.tty,
    foreground_processes: found.foreground.map((process) => ({
      pid: process.pid,
      name: process.name,
      argv0: process.argv?.[0],
      argv: process.argv,
      cwd: process.cwd,
    })),
  }, currentPaneIds(pane));
}

/** A label as given, trimmed; absent, empty or blank clears it. */
function cleanLabel(label: string | undefined): string | undefined {
  const trimmed = label?.trim();
  return trimmed ? trimmed : undefined;
}

function paneReport(params: MethodParams<'pane.report_metadata'>): MetadataReport {
  return {
    source: params.source,
    seq: params.seq,
    ttlMs: params.ttl_ms,
    tokens: params.tokens,
    title: params.title,
    displayAgent: params.display_agent,
    stateLabels: params.state_labels,
    clearTitle: params.clear_title,
    clearDisplayAgent: params.clear_display_agent,
    clearStateLabels: params.clear_state_labels,
  };
}

export function registerPaneDetailHandlers(router: Router, { registry, metadata }: { registry: Registry; metadata: ReportedMetadata }): void {
  router.register('pane.process_info', async (params) => {
    const pane = registry.resolvePaneOrFocused(params.pane_id);
    const info = await processInfo(pane);
    // The pane may have gone while /proc was read; its numbers may have moved too.
    if (registry.paneByUid(pane.uid) !== pane) throw errorNaming('pane_not_found', (name) => `pane ${params.pane_id ?? name(pane)} went away`);
    return { type: 'pane_process_info', process_info: { ...info, pane_id: paneIds(pane).pane_id } };
  });

  router.register('pane.rename', (params, { batch }) => {
    const pane = registry.resolvePane(params.pane_id);
    const label = cleanLabel(params.label);
    if (label !== pane.label) {
      pane.label = label;
      paneUpdated(registry, pane, batch);
    }
    return { type: 'pane_info', pane: paneInfo(registry, pane) };
  });

  // Answered `ok` also when the report is dropped for an old seq, as hook reports are (§10.5).
  router.register('pane.report_metadata', (params, { batch }) => {
    const pane = registry.resolvePane(params.pane_id);
    if (metadata.reportPane(pane, paneReport(params))) paneUpdated(registry, pane, batch);
    return OK;
  });

  router.register('workspace.report_metadata', (params, { batch }) => {
    const workspace = registry.resolveWorkspace(params.workspace_id);
    const report = { source: params.source, seq: params.seq, ttlMs: params.ttl_ms, tokens: params.tokens };
    if (metadata.reportWorkspace(workspace, report)) workspaceMetadataUpdated(registry, workspace, batch);
    return OK;
  });
}
