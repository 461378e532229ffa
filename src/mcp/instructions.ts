/** What `herdr mcp` tells an agent at initialization: how to drive a fleet with its tools. */
export const INSTRUCTIONS = `herdr hosts terminal panes running coding agents (and shells). You orchestrate them:

1. start_agent {kind: "claude" | "codex" | …, cwd, name} (or command: [argv]); worktree: {branch} gives it a fresh git worktree.
   It answers when the agent is ready for a prompt.
2. prompt_agent {target: name, text, wait: {}} hands it a task and answers when the turn ends (done, idle or blocked).
   To run several at once, prompt each without wait, then wait_agents {targets: [...], until: ["done", "blocked"]}:
   it answers when the first one finishes, pushed by the server (no polling). Call it again for the others.
3. read_pane {target, lines} shows what an agent or shell printed (source "visible" for the screen only).
4. A blocked agent asks a question (its "question" field; fleet lists blocked ones first). approvals lists every one with
   its menu's options and a question_hash; answer_approval {pane, option, question_hash} picks one, typed only while that
   question is still on its screen. A menu approvals cannot read: read_pane, then send_keys {target, keys: ["Down", "Enter"]}.
   Then wait again.
5. run_command {command, cwd | pane_id} runs a shell command in a pane (a scratch shell kept for this session unless pane_id) and returns its output and exit code.
6. close {pane_id | workspace_id} when done. fleet shows everything at any time.

Ids: panes are w<N>:p<M>, workspaces w<N>; they never change while the pane lives. An agent is also named by its name
or agent_instance_id. With several servers, a remote one's ids read host/w1:p3 (start_agent and run_command take host). Errors carry herdr's code first ("agent_blocked: …", "timeout: …").
Resources: herdr://pane/<id>/screen is each pane's screen (subscribe for updates); herdr://agents lists agents and is
updated (with a log message) whenever one turns blocked.`;
