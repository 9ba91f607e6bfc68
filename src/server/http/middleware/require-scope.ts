import type { MiddlewareHandler } from 'hono';
import { scopeSatisfies, type Scope } from '../../../contract/scopes.js';
import type { AppEnv } from '../env.js';
import { ApiError } from '../../core/errors.js';
import { said } from '../../core/sentences.js';

export type ScopeRule = Scope | 'any';

/**
 * Runs after authentication, so that a request that deserves 401 never gets 403.
 * Fails closed: a credential with no scopes at all is refused everywhere, even where any scope will do.
 */
export function requireScope(required: ScopeRule): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const granted = c.var.caller.scopes;
    const ok = granted.length > 0 && (required === 'any' || scopeSatisfies(granted, required));
    if (!ok) {
      throw new ApiError(
        'insufficient_scope',
        required === 'any'
          ? said({ id: 'api.request.noScopes', defaultMessage: 'This credential has no scopes' })
          : said({ id: 'api.request.scopeNeeded', defaultMessage: 'This operation needs the {scope} scope', description: 'scope: a permission name such as transfers:write' }, { scope: required }),
        { required, granted },
      );
    }
    await next();
  };
}
