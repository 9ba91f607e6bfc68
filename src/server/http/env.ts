import type { HttpBindings } from '@hono/node-server';
import type { SignedInUser } from '../auth/sessions.js';
import type { Services } from '../services.js';
import type { Caller } from '../core/caller.js';

export interface AppEnv {
  Bindings: HttpBindings;
  Variables: {
    services: Services;
    requestId: string;
    caller: Caller;
    user: SignedInUser;
  };
}
