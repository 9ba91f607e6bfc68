import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiError, json, stubFetch, type StubHandler, type StubResponse } from '../../../test/fetch-stub';
import { apiKey, session } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';

function signedOut(extra: Record<string, StubHandler> = {}) {
  let current: ReturnType<typeof session> | null = null;
  return stubFetch({
    'GET /api/dashboard/setup': json({ needsFirstWorkspace: false }),
    'GET /api/dashboard/session': () => (current ? json(current) : apiError(401, 'unauthorized', 'Not signed in')),
    'POST /api/dashboard/signin': () => {
      current = session();
      return json(current);
    },
    'GET /api/dashboard/keys': json({ keys: [apiKey()] }),
    ...extra,
  });
}

describe('sign-in page', () => {
  it('shows a message next to each field when submitted empty, without asking the server', async () => {
    const network = signedOut();
    const { user } = renderApp('/signin');

    await user.click(await screen.findByRole('button', { name: 'Sign in' }));

    const email = screen.getByLabelText('Email');
    const password = screen.getByLabelText('Password');
    expect(email).toBeInvalid();
    expect(email).toHaveAccessibleDescription('Enter your email address');
    expect(password).toHaveAccessibleDescription('Enter your password');
    expect(email).toHaveFocus();
    expect(network.requestsTo('POST /api/dashboard/signin')).toHaveLength(0);
  });

  it('says an email address is not valid before sending it', async () => {
    signedOut();
    const { user } = renderApp('/signin');

    await user.type(await screen.findByLabelText('Email'), 'ada.example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Enter a valid email address');
    expect(screen.getByLabelText('Password')).not.toBeInvalid();
  });

  it("shows the server's message when the email or password is wrong", async () => {
    signedOut({ 'POST /api/dashboard/signin': apiError(401, 'unauthorized', 'Wrong email or password') });
    const { user } = renderApp('/signin');

    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'not the password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong email or password');
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('says when to try again after too many attempts', async () => {
    signedOut({
      'POST /api/dashboard/signin': apiError(429, 'rate_limited', 'Too many failed sign-in attempts; try again later', {}, { 'Retry-After': '300' }),
    });
    const { user } = renderApp('/signin');

    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'not the password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Too many failed sign-in attempts; try again later');
    expect(alert).toHaveTextContent('Try again in 5 minutes');
  });

  it("attaches the server's field errors to the fields they name", async () => {
    signedOut({
      'POST /api/dashboard/signin': apiError(400, 'invalid_request', 'The request is invalid', {
        fields: [{ path: 'password', message: 'Use at most 200 characters' }],
      }),
    });
    const { user } = renderApp('/signin');

    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'x');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Use at most 200 characters'));
    expect(screen.getByRole('alert')).toHaveTextContent('The request is invalid');
  });

  it('signs in and continues to the page the visitor was heading for', async () => {
    const network = signedOut();
    const { user, router } = renderApp('/signin?redirect=%2Fkeys');

    await user.type(await screen.findByLabelText('Email'), ' Ada@Example.com ');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('heading', { name: 'API keys', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/keys');
    expect(network.requestsTo('POST /api/dashboard/signin')[0]?.body).toEqual({ email: 'Ada@Example.com', password: 'correct horse battery' });
    expect(network.requestsTo('POST /api/dashboard/signin')[0]?.headers.get('Content-Type')).toBe('application/json');
  });

  it.each(['https://evil.example/phish', '//evil.example', '/\\evil.example'])(
    'goes to transfers instead of following a redirect off the site (%s)',
    async (target) => {
      signedOut();
      const { user, router } = renderApp(`/signin?redirect=${encodeURIComponent(target)}`);

      await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
      await user.type(screen.getByLabelText('Password'), 'correct horse battery');
      await user.click(screen.getByRole('button', { name: 'Sign in' }));

      expect(await screen.findByRole('heading', { name: 'Transfers', level: 1 })).toBeInTheDocument();
      expect(router.state.location.href).toBe('/transfers');
    },
  );

  it('offers each identity provider of the server as a link that leaves for it', async () => {
    signedOut({ 'GET /api/dashboard/signin/providers': json({ providers: [{ id: 'idp_1', name: 'Analytical Login' }] }) });
    renderApp('/signin');
    expect(await screen.findByRole('link', { name: 'Sign in with Analytical Login' })).toHaveAttribute('href', '/api/dashboard/signin/sso?provider=idp_1');
  });

  it('says why a single sign-on was refused, in its own words, and ignores a reason it does not know', async () => {
    signedOut();
    renderApp('/signin?sso_error=unverified_email');
    expect(await screen.findByRole('alert')).toHaveTextContent('Your identity provider does not confirm your email address');
    renderApp('/signin?sso_error=%3Cb%3Ehello%3C%2Fb%3E');
    await screen.findAllByRole('heading', { name: 'Sign in' });
    expect(screen.queryByText(/hello/)).toBeNull();
  });

  it('links to sign-up', async () => {
    signedOut();
    const { user } = renderApp('/signin');

    await user.click(await screen.findByRole('link', { name: 'Create a workspace' }));

    expect(await screen.findByRole('heading', { name: 'Create an account' })).toBeInTheDocument();
  });

  describe('with two-step verification on', () => {
    function withSecondStep(secondStep: StubResponse) {
      let current: ReturnType<typeof session> | null = null;
      return signedOut({
        'GET /api/dashboard/session': () => (current ? json(current) : apiError(401, 'unauthorized', 'Not signed in')),
        'POST /api/dashboard/signin': apiError(401, 'unauthorized', 'Enter the code from your authenticator app to finish signing in', { reason: 'second_step_required', methods: ['totp', 'recovery_code'] }),
        'POST /api/dashboard/signin/second-step': () => {
          if (secondStep.status === 200) current = session();
          return secondStep;
        },
      });
    }

    async function passPassword(user: ReturnType<typeof renderApp>['user']) {
      await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
      await user.type(screen.getByLabelText('Password'), 'correct horse battery');
      await user.click(screen.getByRole('button', { name: 'Sign in' }));
      return screen.findByRole('heading', { name: 'Two-step verification' });
    }

    it('asks for the code after the password, checks its shape, and signs in trusting the browser when asked', async () => {
      const network = withSecondStep(json(session()));
      const { user, router } = renderApp('/signin?redirect=%2Fkeys');
      await passPassword(user);

      const code = screen.getByLabelText('Code from the app');
      expect(code).toHaveFocus();
      expect(code).toHaveAttribute('autocomplete', 'one-time-code');
      await user.type(code, '12345');
      await user.click(screen.getByRole('button', { name: 'Verify' }));
      expect(code).toHaveAccessibleDescription('Enter the 6-digit code from your authenticator app');
      expect(network.requestsTo('POST /api/dashboard/signin/second-step')).toHaveLength(0);

      await user.type(code, '6');
      await user.click(screen.getByRole('checkbox', { name: 'Trust this browser for 30 days' }));
      await user.click(screen.getByRole('button', { name: 'Verify' }));
      expect(await screen.findByRole('heading', { name: 'API keys', level: 1 })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/keys');
      expect(network.requestsTo('POST /api/dashboard/signin/second-step')[0]?.body).toEqual({ code: '123456', trustBrowser: true });
    });

    it('takes a recovery code instead, and shows a wrong one’s error on the field', async () => {
      const network = withSecondStep(apiError(400, 'invalid_request', 'That code is not right', { fields: [{ path: 'code', message: 'This code is not right' }] }));
      const { user } = renderApp('/signin');
      await passPassword(user);

      await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
      await user.type(screen.getByLabelText('Recovery code'), 'abcde-fghjk');
      await user.click(screen.getByRole('button', { name: 'Verify' }));
      await waitFor(() => expect(screen.getByLabelText('Recovery code')).toHaveAccessibleDescription('This code is not right'));
      expect(network.requestsTo('POST /api/dashboard/signin/second-step')[0]?.body).toEqual({ code: 'abcde-fghjk', trustBrowser: false });
    });

    it('goes back to the password when the sign-in has expired', async () => {
      withSecondStep(apiError(401, 'unauthorized', 'This sign-in has expired: enter your email and password again', { reason: 'sign_in_expired' }));
      const { user } = renderApp('/signin');
      await passPassword(user);

      await user.type(screen.getByLabelText('Code from the app'), '123456');
      await user.click(screen.getByRole('button', { name: 'Verify' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in has expired');
      await user.click(screen.getByRole('button', { name: 'Sign in again' }));
      expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
      expect(screen.queryByRole('alert')).toBeNull();
    });
  });

  it('offers passkeys at a domain name, and none at an IP address, where browsers refuse them as no domain', async () => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    vi.stubGlobal('isSecureContext', true);
    signedOut();
    const atDomain = renderApp('/signin');
    expect(await screen.findByRole('button', { name: 'Sign in with a passkey' })).toBeInTheDocument();
    atDomain.unmount();

    const before = window.location.href;
    // happy-dom's own control of the page's address (not a DOM API).
    const { happyDOM } = window as unknown as { happyDOM: { setURL(url: string): void } };
    happyDOM.setURL('http://127.0.0.1:8080/signin');
    try {
      renderApp('/signin');
      expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).not.toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    } finally {
      happyDOM.setURL(before);
    }
  });
});
