import { z } from '@hono/zod-openapi';
import { scopes } from './scope-names.js';

export * from './scope-names.js';

export const ScopeSchema = z.enum(scopes).openapi('Scope');
