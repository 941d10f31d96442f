import type { Family, FamilyContext } from '../family';
import { Router } from '../http';

export function createConversationsFamily(_ctx: FamilyContext): Family {
  const router = new Router();
  return { name: 'conversations', base: 'runtime', router };
}
