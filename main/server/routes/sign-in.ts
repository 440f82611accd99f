import { Type } from '@sinclair/typebox';
import type { RouteRegistry } from '../route-registry.js';
import type { SignInLinks } from '../../services/accounts/sign-in-links.js';
import { DomainError } from '../../services/errors.js';
import { LOOPBACK_NAMES } from '../middleware/local-guard.js';

const SignInBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The token from the `#token=` fragment of the printed sign-in link.' }),
});
const SignInResult = Type.Object({
  accountId: Type.String({ description: 'Send as X-ACCOUNT-ID.' }),
  apiKey: Type.String({ description: 'Send as X-API-KEY.' }),
});

/**
 * `POST /v1/sign-in`: the one-click link's token for the local credentials. Only the app's own
 * page may ask (its loopback origin, which must be sent; not even an allow-listed integration origin), and a browser
 * must say the request is same-origin, so no other web page can trade a token for the key.
 */
export function registerSignInRoutes(registry: RouteRegistry, deps: { signIn: SignInLinks; port: () => number }): void {
  registry.add(
    {
      method: 'post', path: '/v1/sign-in', operationId: 'exchangeSignInToken', tags: ['Sign-in'], auth: false,
      summary: 'Exchange a one-click sign-in token for the local credentials',
      description: '`npm run serve` prints `http://127.0.0.1:PORT/#token=…`; the interface sends the token here once and keeps the answer for the tab. ' +
        'Tokens are random (256 bits), single-use and expire after 10 minutes; the link never carries the key. Only the app\'s own origin may call this ' +
        '(403 otherwise, also for allow-listed origins and for a request without an Origin header). 401: unknown, used or expired token; 409: no usable local credentials.',
      body: SignInBody, envelope: 'standard',
      success: { status: 200, description: 'The local account id and API key', schema: SignInResult }, errors: [400, 401, 403, 409, 415],
    },
    ({ req, body }) => {
      const origin = req.get('origin');
      const own = LOOPBACK_NAMES.map((name) => `http://${name}:${deps.port()}`);
      // The Origin is required, not only checked when present: browsers send it on every POST from
      // a page, and a script without one is not the page (issue 29: a token read from a log, or a
      // shoulder, was traded for the key by a plain `curl`).
      if (origin === undefined || !own.includes(origin.toLowerCase())) throw new DomainError('forbidden', 'sign-in links work only in the Clindoc page itself');
      const site = req.get('sec-fetch-site');
      if (site !== undefined && site !== 'same-origin') throw new DomainError('forbidden', 'sign-in links work only in the Clindoc page itself');
      return deps.signIn.exchange(body.token);
    },
  );
}
