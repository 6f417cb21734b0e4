import { Router } from 'express';
import type { Deps } from '../domain/deps.js';
import { checkoutRoutes } from './checkout-routes.js';
import { deprecationHeaders } from './deprecations.js';
import { deviceRoutes } from './device-routes.js';
import { exportRoutes } from './export-routes.js';
import { methodNotAllowedRoutes } from './method-not-allowed.js';
import { paymentRoutes } from './payment-routes.js';
import { refundRoutes } from './refund-routes.js';
import { sandboxRoutes } from './sandbox-routes.js';
import { sessionRoutes } from './session-routes.js';

/** `/v1`: one router per concern, each route a thin call into the domain. */
export function restRouter(deps: Deps): Router {
  const router = Router();
  // Deprecated routes' answers carry Deprecation and Sunset (docs/versioning.md); none yet.
  router.use(deprecationHeaders());
  router.use(paymentRoutes(deps));
  router.use(refundRoutes(deps));
  router.use(deviceRoutes(deps));
  router.use(sandboxRoutes(deps));
  router.use(checkoutRoutes(deps));
  router.use(exportRoutes(deps));
  router.use(sessionRoutes(deps));
  router.use(methodNotAllowedRoutes(deps.config.publicBaseUrl));
  return router;
}
