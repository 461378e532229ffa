/** The agents agent.start can launch by kind: the table lives in protocol/agent-kinds.ts, where clients read it too. */
export { AGENT_PROGRAMS, type AgentKind, isAgentKind } from '../../protocol/agent-kinds.js';
