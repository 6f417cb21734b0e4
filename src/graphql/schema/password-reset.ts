import { passwordResetByEmail } from '../../domain/users/password-reset.js';
import { builder } from '../builder.js';

// The login page's question, answered without a session (also GET /v1/session/reset).
builder.queryField('passwordResetByEmail', (t) =>
  t.boolean({
    description:
      'Public. True when a forgotten password can be reset by email (POST /v1/session/reset sends a one-time link, 1 h); false when the service has no mail set up: then the merchant’s owner (an invitation link) or the operator (CLI `merchant user reset`) gives a new link.',
    resolve: (_root, _args, ctx) => passwordResetByEmail(ctx.deps),
  }),
);
