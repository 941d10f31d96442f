// Conversation tests as their own bundle (yaml and the runner), loaded by the Testing view on first use, so
// activation stays small. src/ui/agentTestsRuntime.ts loads it; the command line bundles the modules directly.
export { hasChecks, isJudged, withAgent } from './format';
export { parseTestFile } from './parse';
export { appendCase, newTestFile } from './fromConversation';
export { runCases } from './runner';
export { caseLine, failureLines, summaryLine } from './report';
export { draftExpectations } from './draftExpect';
export { createModelCalls, priceOf } from './model/modelCalls';
export { createOpenAiModel } from './model/openaiModel';
export { readRunLabels, recordLabel, withAdvisory } from './labelsRuntime';
export { estimateRun } from './model/estimate';
export { recordFindings, recordLines } from './records/report';
export { failureNote } from './perturb/turns';
export { runComparison } from './compare/runComparison';
export { comparisonMarkdown } from './compare/markdown';
export { CHANGE_KINDS, casesOfGroup, replayTraffic } from './compare/replayTraffic';
export { filterWords, selectTraffic } from './compare/trafficSelection';
export { replayMarkdown } from './compare/replayMarkdown';
export {
  changedGroups,
  groupCasesFileName,
  replayNotes,
  replaySummary,
  trafficLineFilters,
  trafficLineProblem,
} from './compare/replaySummary';
