import type { Family, FamilyContext } from '../family';
import { Router } from '../http';

export function createDniFamily(_ctx: FamilyContext): Family {
  const router = new Router();
  return { name: 'dni', base: 'runtime', router };
}
