import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';
import { ApiError } from '../../core/errors.js';
import { said } from '../../core/sentences.js';

/** The plan is read with the credential on every request, so a lapsed subscription answers 402 at once. */
export const requirePaidPlan: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.var.caller.plan !== 'paid') {
    throw new ApiError('upgrade_required', said({ id: 'api.request.endpointNeedsPaidPlan', defaultMessage: 'This endpoint needs a paid plan' }), { plan: c.var.caller.plan });
  }
  await next();
};
