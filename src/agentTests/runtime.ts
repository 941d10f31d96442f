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
