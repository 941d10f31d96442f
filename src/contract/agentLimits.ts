// Bounds and names of the Agents API that code without zod needs too (the checks of agent folders), in a module of
// their own so importing them does not bring the schemas in. src/contract/agents.ts exports them with the rest.

/** The specification's bound on an agent's name (AGENT-1). */
export const AGENT_NAME_MIN = 1;
export const AGENT_NAME_MAX = 128;

/** Real-time config names, the `{config}` of their addresses (docs/api-assumptions.md). */
export const REALTIME_CONFIG_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
