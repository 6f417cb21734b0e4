import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Deps } from '../domain/deps.js';
import { AppError } from '../errors.js';
import { passwordResetByEmail, requestPasswordReset } from '../domain/users/password-reset.js';
import { setPasswordWithToken, signIn, signOut } from '../domain/users/sessions.js';
import { deviceSetCookie, deviceToken, fromAnotherSite, sessionClearCookie, sessionSetCookie, sessionToken } from '../http/session-cookie.js';
import { BODY_LIMIT, bodyReader } from './handle.js';

const readJson = bodyReader(express.json({ limit: BODY_LIMIT, type: () => true, strict: false }));

/**
 * Dashboard sign-in, sign-out and the set-password link (docs/dashboard.md "Signing in";
 * docs/security.md "Dashboard users and sessions"). Public routes: per-address rate limit, then the
 * body, then the domain; the cookie is set and cleared here, the only place that knows it is a
 * cookie.
 */
function sessionRoute(deps: Deps, run: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return async (req, res, next) => {
    res.locals.routePattern = `${req.baseUrl}${String(req.route?.path ?? '')}`;
    res.setHeader('Cache-Control', 'no-store');
    try {
      // Another site's page cannot sign a browser in (to the attacker's account) or set a password.
      if (req.method === 'POST' && fromAnotherSite(deps.config, req.headers)) {
        throw new AppError('forbidden', 'Sign-in and set-password requests are taken only from the dashboard’s own pages.');
      }
      await deps.limits?.consume('ip', req.ip ?? 'unknown');
      if (req.method === 'POST') await readJson(req, res);
      await run(req, res);
      if (!res.headersSent) res.status(204).end();
    } catch (err) {
      next(err);
    }
  };
}

export function sessionRoutes(deps: Deps): Router {
  const router = Router();
  const cookieOf = (req: Request) => sessionToken(deps.config, req.headers.cookie);

  router.post(
    '/session',
    sessionRoute(deps, async (req, res) => {
      const client = { ip: req.ip, userAgent: req.headers['user-agent'], deviceToken: deviceToken(deps.config, req.headers.cookie) };
      const signedIn = await signIn(deps, req.body, client);
      // A browser signing in again leaves no live session behind under the cookie it replaces.
      await signOut(deps, cookieOf(req));
      res.setHeader('Set-Cookie', [sessionSetCookie(deps.config, signedIn.token), deviceSetCookie(deps.config, signedIn.deviceToken)]);
    }),
  );

  // Ending a session needs no CSRF header: a forged sign-out gains nobody anything.
  router.delete(
    '/session',
    sessionRoute(deps, async (req, res) => {
      await signOut(deps, cookieOf(req));
      res.setHeader('Set-Cookie', sessionClearCookie(deps.config));
    }),
  );

  router.post(
    '/session/password',
    sessionRoute(deps, async (req) => {
      await setPasswordWithToken(deps, req.body, cookieOf(req));
    }),
  );

  // A forgotten password: 204 whatever the email (a known user gets a link by mail when mail is set up).
  router.post(
    '/session/reset',
    sessionRoute(deps, async (req) => {
      await requestPasswordReset(deps, req.body);
    }),
  );

  // What the login page offers: "email me a link" when mail is set up, else "ask your owner".
  router.get(
    '/session/reset',
    sessionRoute(deps, async (_req, res) => {
      res.status(200).json({ byEmail: passwordResetByEmail(deps) });
    }),
  );

  return router;
}
