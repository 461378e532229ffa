/**
 * The pane a connected client runs in (docs/protocol.md §5.6): the kernel says which process
 * is at the other end of its socket, /proc which pane that process belongs to
 * (os/peer-process.ts). `pane.current` answers with it; `notification.show` names it.
 */
import { paneOfProcess } from '../os/peer-process.js';
import type { Connection } from './connection.js';
import type { PaneRecord, Registry } from './registry.js';

/** The pane the connecting process runs in (its process session or its mark), if any. */
export async function callerPane(connection: Connection, registry: Registry): Promise<PaneRecord | undefined> {
  const pid = connection.peerPid();
  if (pid === undefined) return undefined;
  const found = await paneOfProcess(pid, registry.workspaces.flatMap((workspace) => workspace.panes));
  // The pane may have closed while /proc was read.
  return found && registry.paneByUid(found.uid) === found ? found : undefined;
}
