import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json, stubFetch, type StubHandler } from '../../../test/fetch-stub';
import { session, signedIn } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import type { CreateWebhookRequest } from '../api/types';
import { pullEndpoint, signingSecret, webhookAccount, webhookEndpoint } from '../testing/fixtures';

/** A server with an endpoint store that creating changes. */
function webhookServer({
  plan = 'paid' as 'free' | 'paid',
  webhooks = [webhookEndpoint()],
  extra = {} as Record<string, StubHandler>,
} = {}) {
  let stored = [...webhooks];
  return stubFetch({
    ...signedIn(plan),
    'GET /api/v1/me': json(webhookAccount(plan)),
    'GET /api/v1/webhooks': () => json({ webhooks: stored }),
    'POST /api/v1/webhooks': ({ body }) => {
      const input = body as CreateWebhookRequest;
      const webhook = webhookEndpoint({
        id: 'wh_new',
        url: input.url,
        mode: input.url === null ? 'pull' : 'push',
        description: input.description ?? '',
        events: input.events,
        lastSuccessAt: null,
        createdAt: new Date().toISOString(),
      });
      stored = [...stored, webhook];
      return json({ webhook, secret: signingSecret }, 201);
    },
    ...extra,
  });
}

function row(name: string) {
  return screen.getByRole('link', { name }).closest('li')!;
}

describe('webhooks page', () => {
  it('lists each endpoint with its mode, URL, description, events, state and last delivery times', async () => {
    webhookServer({
      webhooks: [
        webhookEndpoint({ lastFailureAt: new Date(Date.now() - 2 * 3_600_000).toISOString() }),
        webhookEndpoint({
          id: 'wh_2',
          url: 'https://crm.example.org/in',
          description: 'CRM',
          events: ['transfer.expired'],
          enabled: false,
          disabledReason: 'Five deliveries in a row failed after every retry.',
        }),
        pullEndpoint(),
      ],
    });
    renderApp('/webhooks');

    const first = await screen.findByRole('link', { name: 'https://hooks.example.com/parcel' });
    expect(first).toHaveAttribute('href', '/webhooks/wh_1');
    const orders = row('https://hooks.example.com/parcel');
    expect(within(orders).getByText('Push')).toBeInTheDocument();
    expect(within(orders).getByText('Enabled')).toBeInTheDocument();
    expect(within(orders).getByText('Order system')).toBeInTheDocument();
    expect(within(within(orders).getByRole('list', { name: /^Events of/ })).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'transfer.ready',
      'transfer.downloaded',
    ]);
    expect(within(orders).getByText('5 minutes ago')).toBeInTheDocument();
    expect(within(orders).getByText('2 hours ago')).toBeInTheDocument();

    const crm = row('https://crm.example.org/in');
    expect(within(crm).getByText('Paused')).toBeInTheDocument();
    expect(within(crm).getByText('Paused: Five deliveries in a row failed after every retry.')).toBeInTheDocument();
    expect(within(crm).getByText('never')).toBeInTheDocument();

    const pull = row('Pull endpoint');
    expect(within(pull).getByText('Pull')).toBeInTheDocument();
    expect(within(pull).getByText('Nightly import')).toBeInTheDocument();
  });

  it('explains webhooks when there are none yet', async () => {
    webhookServer({ webhooks: [] });
    renderApp('/webhooks');

    expect(await screen.findByRole('heading', { name: 'No webhook endpoints yet' })).toBeInTheDocument();
    expect(screen.getByText(/Each event is a signed HTTPS POST to your URL/)).toBeInTheDocument();
    expect(screen.getByText(/Make a pull endpoint and read the events from the API/)).toBeInTheDocument();
  });

  it('creates a push endpoint and shows its signing secret once, with a Node.js snippet that verifies it', async () => {
    const network = webhookServer({ webhooks: [] });
    const { user } = renderApp('/webhooks');

    await user.type(await screen.findByLabelText('Endpoint URL'), 'https://hooks.example.com/new');
    await user.type(screen.getByLabelText('Description (optional)'), 'Billing');
    await user.click(screen.getByRole('checkbox', { name: 'transfer.downloaded' }));
    await user.click(screen.getByRole('checkbox', { name: 'transfer.ready' }));
    await user.click(screen.getByRole('button', { name: 'Create endpoint' }));

    const secret = await screen.findByRole('textbox', { name: 'Signing secret' });
    expect(secret).toHaveValue(signingSecret);
    expect(secret).toHaveAttribute('readonly');
    expect(secret).toHaveAccessibleDescription(expect.stringContaining('won’t be shown again'));
    expect(network.requestsTo('POST /api/v1/webhooks')[0]?.body).toEqual({
      url: 'https://hooks.example.com/new',
      events: ['transfer.ready', 'transfer.downloaded'],
      description: 'Billing',
    });

    const snippet = screen.getByRole('figure', { name: 'Verify a signature (Node.js)' });
    const code = within(snippet).getByText(/createHmac/, { selector: 'pre > code' });
    expect(code.textContent).toContain("import { createHmac, timingSafeEqual } from 'node:crypto';");
    expect(code.textContent).toContain('timingSafeEqual(given, expected)');
    expect(code.textContent).toContain('toleranceSeconds = 300');
    expect(code.textContent).toContain("express.raw({ type: 'application/json' })");

    await user.click(within(screen.getByRole('region', { name: /created$/ })).getAllByRole('button', { name: 'Copy' })[0]!);
    expect(await navigator.clipboard.readText()).toBe(signingSecret);

    expect(screen.getByRole('link', { name: 'Open endpoint and send a test event' })).toHaveAttribute('href', '/webhooks/wh_new');
    expect(await screen.findByRole('link', { name: 'https://hooks.example.com/new' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByDisplayValue(signingSecret)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create endpoint' })).toBeInTheDocument();
  });

  it('creates a pull endpoint with a null URL and shows how to read its events', async () => {
    const network = webhookServer({ webhooks: [] });
    const { user } = renderApp('/webhooks');

    await user.click(await screen.findByRole('radio', { name: 'Pull from the API' }));
    expect(screen.queryByLabelText('Endpoint URL')).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'transfer.expired' }));
    await user.click(screen.getByRole('button', { name: 'Create endpoint' }));

    expect(await screen.findByRole('heading', { name: 'Pull endpoint created' })).toBeInTheDocument();
    expect(network.requestsTo('POST /api/v1/webhooks')[0]?.body).toEqual({ url: null, events: ['transfer.expired'], description: '' });
    expect(screen.getByRole('figure', { name: 'Read the next events' })).toHaveTextContent('/api/v1/webhooks/wh_new/events?limit=100');
    expect(screen.queryByRole('textbox', { name: 'Signing secret' })).not.toBeInTheDocument();
  });

  it('shows the paid events switched off on the free plan, and explains the endpoint allowance', async () => {
    webhookServer({ plan: 'free', webhooks: [] });
    renderApp('/webhooks');

    const collectionEvent = await screen.findByRole('checkbox', { name: 'collection.file_uploaded' });
    expect(collectionEvent).toBeDisabled();
    expect(collectionEvent).toHaveAccessibleDescription('A file finished uploading into a collection. Paid plan');
    expect(screen.getByRole('checkbox', { name: 'request.submitted' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'transfer.ready' })).toBeEnabled();
    expect(screen.queryByRole('checkbox', { name: 'webhook.test' })).not.toBeInTheDocument();
    expect(screen.getByText(/This workspace has 0 endpoints of 1\. The free plan allows 1 endpoint and transfer events; the paid plan allows up to 10 endpoints/)).toBeInTheDocument();
  });

  it('names no plan on a server that bills nobody, where every event is offered', async () => {
    const unbilled = webhookAccount('paid');
    webhookServer({ plan: 'paid', webhooks: [], extra: { 'GET /api/dashboard/session': json(session('paid', false, 'off')), 'GET /api/v1/me': json({ ...unbilled, plan: { ...unbilled.plan, billing: 'off' } }) } });
    renderApp('/webhooks');

    expect(await screen.findByRole('checkbox', { name: 'collection.file_uploaded' })).toBeEnabled();
    expect(screen.getByText('This workspace has 0 endpoints of 10. Up to 10 endpoints, each with any events.')).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/\bplan\b/i);
  });

  it('says the limit is reached instead of offering a form, once the free endpoint exists', async () => {
    webhookServer({ plan: 'free', webhooks: [webhookEndpoint()] });
    renderApp('/webhooks');

    const card = await screen.findByRole('region', { name: 'Endpoint limit reached' });
    expect(card).toHaveTextContent('This workspace has 1 endpoint of 1.');
    expect(card).toHaveTextContent('delete an endpoint or move the workspace to the paid plan');
    expect(screen.queryByRole('button', { name: 'Create endpoint' })).not.toBeInTheDocument();
  });

  it('asks for a URL and at least one event before sending', async () => {
    const network = webhookServer({ webhooks: [] });
    const { user } = renderApp('/webhooks');

    await user.click(await screen.findByRole('button', { name: 'Create endpoint' }));

    expect(screen.getByLabelText('Endpoint URL')).toHaveAccessibleDescription(expect.stringContaining('Enter the URL to send events to'));
    expect(screen.getByLabelText('Endpoint URL')).toHaveFocus();
    expect(screen.getByRole('group', { name: 'Events' })).toHaveAccessibleDescription('Choose at least one event');
    await user.type(screen.getByLabelText('Endpoint URL'), 'hooks.example.com');
    expect(screen.getByLabelText('Endpoint URL')).toHaveAccessibleDescription(expect.stringContaining('Enter a full URL'));
    expect(network.requestsTo('POST /api/v1/webhooks')).toHaveLength(0);
  });

  it("shows the server's refusal of a private address next to the URL field", async () => {
    webhookServer({
      webhooks: [],
      extra: {
        'POST /api/v1/webhooks': apiError(400, 'invalid_request', 'url points to a private, loopback or reserved address', { reason: 'forbidden_url' }),
      },
    });
    const { user } = renderApp('/webhooks');

    await user.type(await screen.findByLabelText('Endpoint URL'), 'https://10.0.0.5/hook');
    await user.click(screen.getByRole('checkbox', { name: 'transfer.ready' }));
    await user.click(screen.getByRole('button', { name: 'Create endpoint' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('url points to a private, loopback or reserved address');
    const url = screen.getByLabelText('Endpoint URL');
    await waitFor(() => expect(url).toHaveFocus());
    expect(url).toHaveAttribute('aria-invalid', 'true');
    expect(url).toHaveAccessibleDescription(expect.stringContaining('url points to a private, loopback or reserved address'));
    expect(screen.queryByRole('textbox', { name: 'Signing secret' })).not.toBeInTheDocument();
  });

  it("shows the server's field errors and its upgrade message", async () => {
    webhookServer({
      webhooks: [],
      extra: {
        'POST /api/v1/webhooks': apiError(402, 'upgrade_required', 'request.submitted needs a paid plan', { reason: 'paid_event' }),
      },
    });
    const { user } = renderApp('/webhooks');

    await user.type(await screen.findByLabelText('Endpoint URL'), 'https://hooks.example.com/x');
    await user.click(screen.getByRole('checkbox', { name: 'transfer.ready' }));
    await user.click(screen.getByRole('button', { name: 'Create endpoint' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('request.submitted needs a paid plan');
    expect(screen.getByRole('group', { name: 'Events' })).toHaveAccessibleDescription('request.submitted needs a paid plan');
  });

  it('renders descriptions and URLs from the API as text, never as markup', async () => {
    webhookServer({
      webhooks: [webhookEndpoint({ description: '<img src=x onerror="alert(1)">Orders', url: 'https://hooks.example.com/<b>x</b>' })],
    });
    const { container } = renderApp('/webhooks');

    expect(await screen.findByText('<img src=x onerror="alert(1)">Orders')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'https://hooks.example.com/<b>x</b>' })).toBeInTheDocument();
    expect(container.querySelector('img, b')).toBeNull();
  });

  it('keeps the page and shows the message in place when the list cannot be read', async () => {
    webhookServer({ extra: { 'GET /api/v1/webhooks': apiError(403, 'insufficient_scope', 'This key lacks webhooks:read') } });
    renderApp('/webhooks');

    expect(await screen.findByRole('alert')).toHaveTextContent('This key lacks webhooks:read');
    expect(screen.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
