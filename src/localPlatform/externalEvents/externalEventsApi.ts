import type { Family, FamilyContext } from '../family';
import { Router } from '../http';

export function createExternalEventsFamily(_ctx: FamilyContext): Family {
  const router = new Router();
  return { name: 'externalEvents', base: 'runtime', router };
}
