import type { Family, FamilyContext } from '../family';
import { Router } from '../http';

export function createMessagingFamily(_ctx: FamilyContext): Family {
  const router = new Router();
  return { name: 'messaging', base: 'messaging', router };
}
