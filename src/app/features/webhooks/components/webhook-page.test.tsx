import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json, noContent, stubFetch, type StubHandler } from '../../../test/fetch-stub';
import { signedIn } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import type { PulledEvent, UpdateWebhookRequest, WebhookDeliveryList, WebhookEndpoint } from '../api/types';
import { deliveryAttempt, pullEndpoint, pulledEvent, signingSecret, webhookAccount, webhookEndpoint } from '../testing/fixtures';

const minute = 60_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const fromNow = (ms: number) => new Date(Date.now() + ms).toISOString();

/** One endpoint that PATCH, rotate and delete change, with its deliveries. */
function endpointServer({
  plan = 'paid' as 'free' | 'paid',
  webhook = webhookEndpoint(),
  deliveries = { attempts: [], pending: [] } as WebhookDeliveryList | (() => WebhookDeliveryList),
  extra = {} as Record<string, StubHandler>,
} = {}) {
  let stored: WebhookEndpoint | null = webhook;
  return stubFetch({
    ...signedIn(plan),
    'GET /api/v1/me': json(webhookAccount(plan)),
    'GET /api/v1/webhooks': () => json({ webhooks: stored ? [stored] : [] }),
    'GET /api/v1/webhooks/:id': () => (stored ? json({ webhook: stored }) : apiError(404, 'not_found', 'No such endpoint')),
    'PATCH /api/v1/webhooks/:id': ({ body }) => {
      const change = body as UpdateWebhookRequest;
      stored = { ...stored!, ...change, disabledReason: change.enabled === false ? 'Paused by hand' : change.enabled ? null : stored!.disabledReason };
      return json({ webhook: stored });
    },
    'DELETE /api/v1/webhooks/:id': () => {
      stored = null;
      return noContent;
    },
    'POST /api/v1/webhooks/:id/rotate-secret': () => json({ webhook: stored, secret: signingSecret }),
    'GET /api/v1/webhooks/:id/deliveries': () => json(typeof deliveries === 'function' ? deliveries() : deliveries),
    ...extra,
  });
}

function delivery(deliveryId: string) {
  return screen.getByRole('listitem', { name: (_name, element) => element.textContent?.includes(deliveryId) ?? false });
}

describe('webhook endpoint page', () => {
  it('shows each delivery with its attempts: status, error, duration, attempt number and next retry', async () => {
    const nextRetry = fromNow(25 * minute);
    endpointServer({
      deliveries: {
        attempts: [
          deliveryAttempt({ id: 'wha_3', deliveryId: 'whd_2', eventId: 'evt_2', eventType: 'transfer.downloaded', attempt: 2, attemptedAt: ago(2 * minute), success: false, statusCode: 500, error: 'The endpoint answered 500', durationMs: 1234, nextRetryAt: nextRetry, responseBody: 'Internal error' }),
          deliveryAttempt({ id: 'wha_2', deliveryId: 'whd_2', eventId: 'evt_2', eventType: 'transfer.downloaded', attempt: 1, attemptedAt: ago(7 * minute), success: false, statusCode: null, error: 'Connection refused', durationMs: 12, nextRetryAt: ago(6 * minute), responseBody: null }),
          deliveryAttempt(),
        ],
        pending: [{ deliveryId: 'whd_2', eventId: 'evt_2', eventType: 'transfer.downloaded', createdAt: ago(8 * minute), nextAttemptAt: nextRetry, attempts: 2 }],
      },
    });
    const { user } = renderApp('/webhooks/wh_1');

    expect(await screen.findByRole('heading', { level: 1, name: 'https://hooks.example.com/parcel' })).toBeInTheDocument();
    const failing = await waitFor(() => delivery('whd_2'));
    expect(within(failing).getByRole('heading', { name: 'transfer.downloaded' })).toBeInTheDocument();
    expect(within(failing).getByText(/^Retrying at /)).toBeInTheDocument();
    const rows = within(within(failing).getByRole('table')).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('#2')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('500 Internal Server Error')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('The endpoint answered 500')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('1,234 ms')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('2 minutes ago')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('No response')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Connection refused')).toBeInTheDocument();

    const delivered = delivery('whd_1');
    expect(within(delivered).getByText('Delivered')).toBeInTheDocument();
    expect(within(delivered).getByText('200 OK')).toBeInTheDocument();
    expect(within(delivered).getByText('84 ms')).toBeInTheDocument();
    expect(within(delivered).getByText('evt_1')).toBeInTheDocument();

    // The groups come newest first.
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent).slice(0, 2)).toEqual(['transfer.downloaded', 'transfer.ready']);

    await user.click(within(rows[0]!).getByRole('button', { name: 'Show request and response of attempt 2' }));
    expect(within(failing).getByRole('button', { name: 'Hide request and response of attempt 2' })).toHaveAttribute('aria-expanded', 'true');
    expect(within(failing).getByRole('figure', { name: 'Request body' })).toHaveTextContent('"type":"transfer.ready"');
    expect(within(failing).getByRole('figure', { name: 'Response body (first 2 KiB)' })).toHaveTextContent('Internal error');
  });

  it('retries a delivery through the API and shows it queued again', async () => {
    let retried = false;
    const failed = deliveryAttempt({ success: false, statusCode: 503, error: 'The endpoint answered 503', nextRetryAt: null });
    const network = endpointServer({
      deliveries: () => ({
        attempts: [failed],
        pending: retried ? [{ deliveryId: 'whd_1', eventId: 'evt_1', eventType: 'transfer.ready', createdAt: ago(20 * minute), nextAttemptAt: ago(0), attempts: 1 }] : [],
      }),
      extra: {
        'POST /api/v1/webhooks/:id/deliveries/:deliveryId/retry': () => {
          retried = true;
          return json({ deliveryId: 'whd_1' }, 202);
        },
      },
    });
    const { user } = renderApp('/webhooks/wh_1');

    const group = await waitFor(() => delivery('whd_1'));
    expect(within(group).getByText('Failed')).toBeInTheDocument();
    expect(within(group).getByText('503 Service Unavailable')).toBeInTheDocument();

    await user.click(within(group).getByRole('button', { name: 'Retry delivery whd_1' }));

    expect(network.requestsTo('POST /api/v1/webhooks/wh_1/deliveries/whd_1/retry')).toHaveLength(1);
    await waitFor(() => expect(within(delivery('whd_1')).getByText('Retrying now')).toBeInTheDocument());
    expect(screen.getByText('Delivery whd_1 queued again.')).toBeInTheDocument();
  });

  it('sends a test event and polls until its delivery shows 200 OK', async () => {
    let reads = 0;
    let tested = false;
    const network = endpointServer({
      deliveries: () => {
        if (!tested) return { attempts: [], pending: [] };
        reads += 1;
        return reads === 1
          ? { attempts: [], pending: [{ deliveryId: 'whd_t', eventId: 'evt_t', eventType: 'webhook.test', createdAt: ago(0), nextAttemptAt: ago(0), attempts: 0 }] }
          : { attempts: [deliveryAttempt({ id: 'wha_t', deliveryId: 'whd_t', eventId: 'evt_t', eventType: 'webhook.test', attemptedAt: ago(0) })], pending: [] };
      },
      extra: {
        'POST /api/v1/webhooks/:id/test': () => {
          tested = true;
          return json({ deliveryId: 'whd_t' }, 202);
        },
        'GET /api/v1/webhooks/:id': () => json({ webhook: webhookEndpoint({ lastSuccessAt: reads > 1 ? ago(0) : null }) }),
      },
    });
    const { user } = renderApp('/webhooks/wh_1');

    expect(await screen.findByText(/Nothing delivered yet/)).toBeInTheDocument();
    const overview = screen.getByRole('region', { name: 'Overview' });
    expect(within(overview).getByText('Last success').nextElementSibling).toHaveTextContent('never');
    await user.click(screen.getByRole('button', { name: 'Send test event' }));

    expect(network.requestsTo('POST /api/v1/webhooks/wh_1/test')).toHaveLength(1);
    expect(await screen.findByText('Test event queued. Its delivery appears below in a moment.')).toBeInTheDocument();
    await waitFor(() => expect(within(delivery('whd_t')).getByText('Queued')).toBeInTheDocument());
    await waitFor(() => expect(within(delivery('whd_t')).getByText('200 OK')).toBeInTheDocument(), { timeout: 5000 });
    expect(within(delivery('whd_t')).getByText('Delivered')).toBeInTheDocument();
    // The endpoint is read again, so its last success is current.
    await waitFor(() => expect(within(overview).getByText('Last success').nextElementSibling).toHaveTextContent('just now'));
  });

  it('asks for confirmation before deleting, then goes back to the list', async () => {
    const network = endpointServer();
    const { user, router } = renderApp('/webhooks/wh_1');

    const remove = await screen.findByRole('button', { name: 'Delete endpoint' });
    await user.click(remove);
    let dialog = screen.getByRole('alertdialog', { name: 'Delete this endpoint?' });
    expect(dialog).toHaveTextContent('https://hooks.example.com/parcel gets no more events, and its delivery history is deleted.');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(network.requestsTo('DELETE /api/v1/webhooks/wh_1')).toHaveLength(0);

    await user.click(remove);
    dialog = screen.getByRole('alertdialog', { name: 'Delete this endpoint?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete endpoint' }));

    expect(await screen.findByRole('heading', { name: 'No webhook endpoints yet' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/webhooks');
    expect(network.requestsTo('DELETE /api/v1/webhooks/wh_1')).toHaveLength(1);
  });

  it('pauses and resumes the endpoint, showing why it is paused', async () => {
    const network = endpointServer();
    const { user } = renderApp('/webhooks/wh_1');

    await user.click(await screen.findByRole('button', { name: 'Pause endpoint' }));

    expect(await screen.findByText('Paused: Paused by hand It gets no new events until you resume it.')).toBeInTheDocument();
    expect(network.requestsTo('PATCH /api/v1/webhooks/wh_1')[0]?.body).toEqual({ enabled: false });
    await user.click(screen.getByRole('button', { name: 'Resume endpoint' }));
    expect(await screen.findByRole('button', { name: 'Pause endpoint' })).toBeInTheDocument();
    expect(network.requestsTo('PATCH /api/v1/webhooks/wh_1')[1]?.body).toEqual({ enabled: true });
    expect(screen.queryByText(/^Paused:/)).not.toBeInTheDocument();
  });

  it('rotates the secret only after confirming, then shows the new one once', async () => {
    const network = endpointServer();
    const { user } = renderApp('/webhooks/wh_1');

    await user.click(await screen.findByRole('button', { name: 'Rotate secret' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Rotate the signing secret?' });
    expect(dialog).toHaveTextContent('The current secret stops working at once');
    expect(network.requestsTo('POST /api/v1/webhooks/wh_1/rotate-secret')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Rotate secret' }));

    expect(await screen.findByRole('textbox', { name: 'Signing secret' })).toHaveValue(signingSecret);
    expect(screen.getByRole('figure', { name: 'Verify a signature (Node.js)' })).toHaveTextContent('createHmac');
    expect(network.requestsTo('POST /api/v1/webhooks/wh_1/rotate-secret')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByDisplayValue(signingSecret)).not.toBeInTheDocument();
  });

  it('edits the URL, description and events, sending only what changed', async () => {
    const network = endpointServer();
    const { user } = renderApp('/webhooks/wh_1');

    const settings = await screen.findByRole('form', { name: 'Endpoint settings' });
    const save = within(settings).getByRole('button', { name: 'Save changes' });
    expect(save).toBeDisabled();
    const description = within(settings).getByLabelText('Description (optional)');
    await user.clear(description);
    await user.type(description, 'Orders v2');
    await user.click(within(settings).getByRole('checkbox', { name: 'transfer.expired' }));
    await user.click(save);

    expect(await within(settings).findByText('Changes saved.')).toBeInTheDocument();
    expect(network.requestsTo('PATCH /api/v1/webhooks/wh_1')[0]?.body).toEqual({
      description: 'Orders v2',
      events: ['transfer.ready', 'transfer.downloaded', 'transfer.expired'],
    });
    expect(screen.getAllByText('Orders v2').length).toBeGreaterThan(0);
  });

  it("shows the server's refusal of a new URL next to the field", async () => {
    endpointServer({
      extra: {
        'PATCH /api/v1/webhooks/:id': apiError(400, 'invalid_request', 'url must use https', { fields: [{ path: 'url', message: 'url must use https' }] }),
      },
    });
    const { user } = renderApp('/webhooks/wh_1');

    const url = await screen.findByLabelText('Endpoint URL');
    await user.clear(url);
    await user.type(url, 'http://hooks.example.com/plain');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(url).toHaveAccessibleDescription('Must use https.'));
    expect(url).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('pull endpoint page', () => {
  function pullServer(pages: Record<string, { events: PulledEvent[]; nextCursor: string; hasMore: boolean }>) {
    return stubFetch({
      ...signedIn('paid'),
      'GET /api/v1/me': json(webhookAccount('paid')),
      'GET /api/v1/webhooks/:id': json({ webhook: pullEndpoint() }),
      'GET /api/v1/webhooks/:id/events': ({ url }) => json(pages[url.searchParams.get('cursor') ?? ''] ?? apiError(400, 'invalid_request', 'bad cursor')),
    });
  }

  it('reads the feed to its end, shows the events newest first and the nextCursor to read on from', async () => {
    const network = pullServer({
      '': { events: [pulledEvent(), pulledEvent({ id: 'evt_p2', deliveryId: 'whd_p2', type: 'transfer.downloaded', createdAt: ago(30 * minute) })], nextCursor: 'cur_2', hasMore: true },
      cur_2: { events: [pulledEvent({ id: 'evt_p3', deliveryId: 'whd_p3', type: 'transfer.expired', createdAt: ago(5 * minute), data: { transfer: { id: 'tr_1' }, reason: 'revoked' } })], nextCursor: 'cur_3', hasMore: false },
    });
    const { user } = renderApp('/webhooks/wh_pull');

    expect(await screen.findByRole('heading', { level: 1, name: 'Pull endpoint' })).toBeInTheDocument();
    const events = screen.getByRole('region', { name: 'Events' });
    await waitFor(() => expect(within(events).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['transfer.expired', 'transfer.downloaded', 'transfer.ready']));
    expect(network.requests.filter((r) => r.path === '/api/v1/webhooks/wh_pull/events').map((r) => r.url.searchParams.get('cursor'))).toEqual([null, 'cur_2']);

    const guide = screen.getByRole('region', { name: 'Reading the feed' });
    expect(within(guide).getByRole('textbox', { name: 'Current nextCursor' })).toHaveValue('cur_3');
    expect(within(guide).getByRole('figure', { name: 'Read the next events' })).toHaveTextContent('/api/v1/webhooks/wh_pull/events?cursor=cur_3&limit=100');

    await user.click(within(events).getByRole('button', { name: 'Show data of event evt_p3' }));
    expect(within(events).getByRole('figure', { name: 'data' })).toHaveTextContent('"reason": "revoked"');
    // A pull endpoint has no deliveries to show and no secret to rotate.
    expect(screen.queryByRole('region', { name: 'Deliveries' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rotate secret' })).not.toBeInTheDocument();
  });

  it('says so when the feed is empty', async () => {
    pullServer({ '': { events: [], nextCursor: 'cur_0', hasMore: false } });
    renderApp('/webhooks/wh_pull');

    expect(await screen.findByText(/No events yet/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Current nextCursor' })).toHaveValue('cur_0');
  });
});
