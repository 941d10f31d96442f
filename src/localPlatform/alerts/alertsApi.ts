import type { Family, FamilyContext } from '../family';
import { Router } from '../http';

export function createAlertsFamily(_ctx: FamilyContext): Family {
  const router = new Router();
  return { name: 'alerts', base: 'build', router };
}
