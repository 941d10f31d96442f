import type { Family, FamilyContext } from '../family';
import { Router } from '../http';

export function createChatFamily(_ctx: FamilyContext): Family {
  const router = new Router();
  return { name: 'chat', base: 'runtime', router };
}
