import type { Family, FamilyContext } from '../family';
import { Router } from '../http';

export function createAgentsFamily(_ctx: FamilyContext): Family {
  const router = new Router();
  return { name: 'agents', base: 'build', router };
}
