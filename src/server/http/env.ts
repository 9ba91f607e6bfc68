import type { HttpBindings } from '@hono/node-server';
import type { SignedInUser } from '../auth/sessions.js';
import type { Services } from '../services.js';
import type { Caller } from '../core/caller.js';

export interface AppEnv {
  Bindings: HttpBindings & {
    /**
     * The caller, when an in-process call (an MCP tool running its v1 operation) resolved the credential
     * already; bearerAuth then takes it instead of resolving the credential a second time. A request from
     * the network never carries it: its bindings are the Node request and response.
     */
    resolvedCaller?: Caller;
  };
  Variables: {
    services: Services;
    requestId: string;
    caller: Caller;
    user: SignedInUser;
  };
}
