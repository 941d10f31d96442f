// The file mirror as its own bundle (yaml, node-diff3 and the plans), loaded the first time a command needs it,
// so activation stays small. src/ui/workspaceRuntime.ts loads it.
export { AgentMirror, OtherPlatformDataError, UnpushedEditsError, UnreadableRemoteError } from './mirror';
export type { PullReport, PushReport } from './mirror';
export { NodeFileSystem } from './fileSystem';
export { topicSlug } from './layout';
export { behaviorText, realtimeText, topicText } from './serializer';
export { readBase } from './baseStore';
export { withConflictMarkers } from './conflictMarkers';
export { mergeLines } from './fileMerge';
export type { FileStatus } from './status';
