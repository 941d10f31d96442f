// The Agents view on the local platform, measured in a real VS Code extension host (code-server 1.100.3) with the
// production bundle:
// - with 1,000 agents: time for the root to resolve (list + tree items) and for an agent to expand (its branches +
//   tree items), medians of several runs;
// - with 10,000 agents, the view shown in the workbench: from Refresh to the workbench showing the first agent (a
//   reveal it answers once the view lists it) and to the last tree item handed to VS Code, an agent expanded (in
//   the extension host, and in the workbench), and the extension host's heap and resident memory (after a full
//   collection) before the 10,000 agents are listed and after.
import { editorFigures } from './editorFigures';
import { bench } from './platformProcess';

const metrics = editorFigures(
  'Explorer figures',
  [
    'agentsRootMs',
    'agentExpandMs',
    'manyAgentsHandedOverMs',
    'manyAgentsShownMs',
    'manyAgentsExpandMs',
    'manyAgentsExpandShownMs',
    'manyAgentsHeapBeforeMB',
    'manyAgentsHeapAfterMB',
    'manyAgentsRssBeforeMB',
    'manyAgentsRssAfterMB',
  ],
  { timeoutMs: 600_000 },
);
bench('Agents view root with 1,000 agents (median of 7)', metrics.agentsRootMs, 'ms', '< 100');
bench('expanding an agent with 1,000 agents listed (median of 15)', metrics.agentExpandMs, 'ms', '< 50');
bench(
  'Agents view with 10,000 agents, shown in the workbench: from Refresh to the first agent shown (median of 7)',
  metrics.manyAgentsShownMs,
  'ms',
  '< 1000',
);
bench(
  "Agents view with 10,000 agents: of that, the extension host's part (from Refresh to the last tree item handed to VS Code)",
  metrics.manyAgentsHandedOverMs,
  'ms',
);
bench('expanding an agent with 10,000 agents listed (median of 15)', metrics.manyAgentsExpandMs, 'ms', '< 50');
bench(
  'expanding an agent in the workbench with 10,000 agents listed, to its branches read by VS Code (median of 15)',
  metrics.manyAgentsExpandShownMs,
  'ms',
  '< 100',
);
bench(
  "Agents view with 10,000 agents: the extension host's heap they hold (after a full collection, after less before)",
  metrics.manyAgentsHeapAfterMB - metrics.manyAgentsHeapBeforeMB,
  'MB',
  '< 100',
);
bench(
  "Agents view: the extension host's heap before the 10,000 agents are listed",
  metrics.manyAgentsHeapBeforeMB,
  'MB',
);
bench("Agents view: the extension host's heap with the 10,000 agents listed", metrics.manyAgentsHeapAfterMB, 'MB');
bench(
  "Agents view: the extension host's resident memory before and with the 10,000 agents listed (after less before)",
  metrics.manyAgentsRssAfterMB - metrics.manyAgentsRssBeforeMB,
  'MB',
);
