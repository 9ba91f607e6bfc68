import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json, stubFetch } from '../../../test/fetch-stub';
import { session, signedIn } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const codes = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);

describe('security page', () => {
  it('sets up an authenticator app: the key to type, a wrong code on its field, then the recovery codes once', async () => {
    let enabled = false;
    let attempts = 0;
    const network = stubFetch({
      ...signedIn(),
      'GET /api/dashboard/security/two-step': () => json({ enabled, enabledAt: enabled ? '2026-11-29T10:00:00.000Z' : null, recoveryCodesLeft: enabled ? 10 : 0 }),
      'POST /api/dashboard/security/two-step/setup': json({ secret: SECRET, uri: `otpauth://totp/Parcel:ada%40example.com?secret=${SECRET}&issuer=Parcel` }),
      'POST /api/dashboard/security/two-step/enable': () => {
        if (++attempts === 1) return apiError(400, 'invalid_request', 'That code is not right', { fields: [{ path: 'code', message: 'This code is not right' }] });
        enabled = true;
        return json({ recoveryCodes: codes });
      },
    });
    const { user } = renderApp('/security');

    const card = await screen.findByRole('region', { name: 'Two-step verification' });
    expect(within(card).getByText('Off')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Set up an authenticator app' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set up an authenticator app' });
    expect(within(dialog).getByRole('img', { name: /QR code to add Parcel/ })).toBeInTheDocument();
    expect(within(dialog).getByText(SECRET)).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Code from the app'), '12345');
    await user.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    expect(within(dialog).getByLabelText('Code from the app')).toHaveAccessibleDescription('Enter the 6-digit code from your authenticator app');
    expect(within(dialog).getByLabelText('Your password')).toHaveAccessibleDescription('Enter your password');
    expect(network.requestsTo('POST /api/dashboard/security/two-step/enable')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Code from the app'), '6');
    await user.type(within(dialog).getByLabelText('Your password'), 'correct horse battery');
    await user.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    await waitFor(() => expect(within(dialog).getByLabelText('Code from the app')).toHaveAccessibleDescription('This code is not right'));

    await user.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    const saved = await screen.findByRole('dialog', { name: 'Save your recovery codes' });
    expect(within(within(saved).getByRole('list', { name: 'Recovery codes' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(codes);
    expect(network.requestsTo('POST /api/dashboard/security/two-step/enable')[1]?.body).toEqual({ code: '123456', password: 'correct horse battery' });
    await user.click(within(saved).getByRole('button', { name: 'I have saved them' }));
    expect(await within(card).findByText('On')).toBeInTheDocument();
    expect(screen.queryByText(codes[0]!)).toBeNull();
  });

  it('holds a member whose workspace requires it on Security, wherever they were going, and offers them no requirement to change', async () => {
    const required = { ...session(), user: { ...session().user, twoStep: false }, workspace: { ...session().workspace, role: 'member' as const, requireTwoStep: true } };
    stubFetch({ ...signedIn(), 'GET /api/dashboard/session': json(required) });
    const { router } = renderApp('/transfers');

    expect(await screen.findByRole('heading', { name: 'Security', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/security');
    // The workspace's name is a value of the sentence, isolated in its own element (<bdi>).
    const notice = screen.getByText('asks everyone to use two-step verification', { exact: false });
    expect(notice).toHaveAttribute('role', 'status');
    expect(notice).toHaveTextContent('Analytical Engines asks everyone to use two-step verification');
    expect(screen.queryByRole('region', { name: 'Two-step verification for everyone' })).toBeNull();
  });

  it('lets an owner require it only once they have it on themselves', async () => {
    stubFetch(signedIn());
    renderApp('/security');
    const requirement = await screen.findByRole('region', { name: 'Two-step verification for everyone' });
    expect(within(requirement).queryByRole('button', { name: 'Require it of everyone' })).toBeNull();
    expect(requirement).toHaveTextContent('Turn it on for yourself first');
  });

  describe('single sign-on', () => {
    const provider = { id: 'idp_1', name: 'Analytical Login' };
    const tied = { domain: 'example.com', providerId: 'idp_1', providerName: 'Analytical Login', createdAt: '2026-11-30T10:00:00.000Z' };

    it('ties the owner’s own domain to the provider they choose, then offers it no more', async () => {
      const network = stubFetch({
        ...signedIn(),
        'GET /api/dashboard/workspace/single-sign-on': json({ providers: [provider], domains: [], required: false }),
        'POST /api/dashboard/workspace/single-sign-on/domains': json({ providers: [provider], domains: [tied], required: false }, 201),
      });
      const { user } = renderApp('/security');
      const card = await screen.findByRole('region', { name: 'Single sign-on' });
      expect(await within(card).findByText('No domain is tied to this workspace.')).toBeInTheDocument();
      expect(within(card).getByLabelText('Identity provider for example.com')).toHaveValue('idp_1');
      await user.click(within(card).getByRole('button', { name: 'Tie example.com' }));
      expect(await within(card).findByRole('list', { name: 'Tied domains' })).toHaveTextContent('example.comThrough Analytical Login');
      expect(network.requestsTo('POST /api/dashboard/workspace/single-sign-on/domains')[0]?.body).toEqual({ domain: 'example.com', providerId: 'idp_1' });
      expect(within(card).queryByRole('button', { name: 'Tie example.com' })).toBeNull();
      // Requiring it waits until the owner signed in through the provider.
      expect(card).toHaveTextContent('Sign in through your identity provider yourself first');
    });

    it('says when the operator has set up no provider', async () => {
      stubFetch({ ...signedIn(), 'GET /api/dashboard/workspace/single-sign-on': json({ providers: [], domains: [], required: false }) });
      renderApp('/security');
      const card = await screen.findByRole('region', { name: 'Single sign-on' });
      expect(await within(card).findByText(/has not set up an identity provider yet/)).toBeInTheDocument();
      expect(within(card).queryByRole('button')).toBeNull();
    });

    it('sends a session signed in with a password to sign in through the provider when the workspace requires it', async () => {
      const required = { ...session(), workspace: { ...session().workspace, role: 'member' as const, requireSingleSignOn: true } };
      stubFetch({ ...signedIn(), 'GET /api/dashboard/session': json(required), 'GET /api/dashboard/signin/providers': json({ providers: [provider] }) });
      const { router } = renderApp('/transfers');
      expect(await screen.findByRole('heading', { name: 'Sign in through your organisation', level: 1 })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/single-sign-on');
      expect(await screen.findByRole('link', { name: 'Sign in with Analytical Login' })).toHaveAttribute('href', '/api/dashboard/signin/sso?provider=idp_1');
    });
  });
});
