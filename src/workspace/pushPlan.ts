import type { UpdateTopicRequest } from '../contract/agents';
import type { BaseSnapshot } from './baseStore';
import { docOf, type LocalDoc, type RemoteDocs } from './documents';
import { configOfKey, type DocKey, kindOfKey, topicIdOfKey } from './layout';
import { type Doc, sameJson } from './serializer';
import { lacksTopicId, localText, sidesOf } from './status';

/** One request a push sends, with the file it comes from and the canonical text the base takes after it. */
export type PushAction = { key: DocKey; path: string; text: string | undefined } & (
  | { kind: 'behavior'; behavior: string }
  | { kind: 'createTopic'; name: string; content: string }
  | { kind: 'updateTopic'; topicId: string; change: UpdateTopicRequest }
  | { kind: 'deleteTopic'; topicId: string }
  | { kind: 'variables'; config: string; variables: Record<string, unknown> }
);

/** A file the push leaves alone, and why. */
export interface PushRefusal {
  key: DocKey;
  path: string;
  reason: 'remoteChanged' | 'conflict' | 'unreadable' | 'cannotDelete' | 'unknownConfig';
  message: string;
}

/**
 * What a push will send, as plain data. Only documents whose file differs from the base are
 * sent, and only what changed in them (a topic's name or content, the variables that changed).
 * When any file to send was also changed on the platform since the last pull, or is in conflict
 * or unreadable, the push sends nothing: `refused` says what to do first. Documents already in
 * step with the platform (a push whose answer was lost) need no request: `inStep` lists them, and
 * the base takes them as they are.
 */
export interface PushPlan {
  actions: PushAction[];
  refused: PushRefusal[];
  inStep: {
    key: DocKey;
    path: string;
    text: string | undefined;
    /** The file needs its topic id written. */ writeFile?: boolean;
  }[];
}

/**
 * With `overwrite`, the platform could not be read and `remote` is what the base says: a real-time config file
 * the base does not know is sent whole (the config's name is the file's), since no list of configs can say
 * whether the agent has it.
 */
export function planPush(
  base: BaseSnapshot,
  local: Map<DocKey, LocalDoc>,
  remote: RemoteDocs,
  opts: { overwrite?: boolean } = {},
): PushPlan {
  const plan: PushPlan = { actions: [], refused: [], inStep: [] };
  for (const s of sidesOf(base, local, remote)) {
    const l = localText(s);
    if (l === s.base && !base.conflicts[s.key]) continue;
    const path = s.local?.path ?? s.basePath ?? '';
    const refuse = (reason: PushRefusal['reason'], message: string): void =>
      void plan.refused.push({ key: s.key, path, reason, message });
    if (base.conflicts[s.key]) {
      if (l === s.remoteText) plan.inStep.push({ key: s.key, path, text: s.remoteText });
      else refuse('conflict', `${path} has a conflict with the platform: settle it first.`);
      continue;
    }
    if (s.local?.problem) {
      refuse('unreadable', `${path}: ${s.local.problem}`);
      continue;
    }
    if (l === s.remoteText) {
      plan.inStep.push({ key: s.key, path, text: l, ...(lacksTopicId(s) ? { writeFile: true } : {}) });
      continue;
    }
    if (s.remoteText !== s.base) {
      refuse('remoteChanged', `${path} was changed on the platform since your last pull: pull first, then push.`);
      continue;
    }
    const action = actionFor(
      s.key,
      path,
      s.base === undefined ? undefined : docOf(s.key, s.basePath ?? path, s.base),
      s.local ? docOf(s.key, s.local.path, s.local.canonical!) : undefined,
      l,
      opts.overwrite === true,
    );
    if ('reason' in action) refuse(action.reason, action.message);
    else plan.actions.push(action);
  }
  // Creations last, so a push that stops half way has sent the edits of topics that exist.
  plan.actions.sort((a, b) => Number(a.kind === 'createTopic') - Number(b.kind === 'createTopic'));
  return plan;
}

function actionFor(
  key: DocKey,
  path: string,
  base: Doc | undefined,
  local: Doc | undefined,
  text: string | undefined,
  overwrite: boolean,
): PushAction | Omit<PushRefusal, 'key' | 'path'> {
  switch (kindOfKey(key)) {
    case 'behavior':
      if (local?.kind !== 'behavior')
        return {
          reason: 'cannotDelete',
          message: `${path} is missing: a branch always has a behavior. Restore the file (discard the deletion) or pull.`,
        };
      return { kind: 'behavior', key, path, text, behavior: local.behavior };
    case 'realtime': {
      const config = configOfKey(key);
      if (overwrite && base === undefined && local?.kind === 'realtime')
        return { kind: 'variables', key, path, text, config, variables: local.variables };
      if (base?.kind !== 'realtime')
        return {
          reason: 'unknownConfig',
          message: `${path}: the agent has no real-time config named "${config}" (configs are made in the studio).`,
        };
      if (local?.kind !== 'realtime')
        return {
          reason: 'cannotDelete',
          message: `${path} is missing: real-time configs cannot be deleted from here. Restore the file or pull.`,
        };
      const variables: Record<string, unknown> = {};
      for (const name of new Set([...Object.keys(base.variables), ...Object.keys(local.variables)])) {
        if (!(name in local.variables)) variables[name] = null;
        else if (!(name in base.variables) || !sameJson(base.variables[name], local.variables[name]))
          variables[name] = local.variables[name];
      }
      return { kind: 'variables', key, path, text, config, variables };
    }
    case 'topic': {
      const topicId = topicIdOfKey(key);
      if (!topicId && base?.kind === 'topic')
        return {
          reason: 'unreadable',
          message: `${path} was pushed as a new topic, but the platform did not say its id: change or delete that topic in the studio.`,
        };
      if (local?.kind === 'topic' && !topicId)
        return { kind: 'createTopic', key, path, text, name: local.name, content: local.content };
      if (!topicId) return { reason: 'unreadable', message: `${path}: nothing to push.` };
      if (local?.kind !== 'topic') return { kind: 'deleteTopic', key, path, text: undefined, topicId };
      if (base?.kind !== 'topic')
        return { kind: 'createTopic', key, path, text, name: local.name, content: local.content };
      const change: UpdateTopicRequest = {
        ...(local.name !== base.name ? { name: local.name } : {}),
        ...(local.content !== base.content ? { content: local.content } : {}),
      };
      return { kind: 'updateTopic', key, path, text, topicId, change };
    }
  }
}
