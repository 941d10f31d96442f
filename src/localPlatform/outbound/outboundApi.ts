import type { Family, FamilyContext } from '../family';
import { Router } from '../http';

export function createOutboundFamily(_ctx: FamilyContext): Family {
  const router = new Router();
  return { name: 'outbound', base: 'runtime', router };
}
