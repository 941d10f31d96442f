import type { Family, FamilyContext } from '../family';
import { Router } from '../http';

export function createConcurrencyFamily(_ctx: FamilyContext): Family {
  const router = new Router();
  return { name: 'concurrency', base: 'runtime', router };
}
