import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { OutboxMessageSummary, OutboxResponse } from '../../../../contract/mail';
import { apiError, json, stubFetch, type StubHandler } from '../../../test/fetch-stub';
import { account, referral, signedIn } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';

const minute = 60_000;

function message(overrides: Partial<OutboxMessageSummary> = {}): OutboxMessageSummary {
  return {
    id: '20261120T100000000Z-0123456789abcdef',
    to: 'bob@example.com',
    subject: 'Ada sent you 2 files',
    tag: 'transfer.sent',
    createdAt: new Date(Date.now() - 5 * minute).toISOString(),
    ...overrides,
  };
}

function rawMessage(subject: string, body: string): string {
  return ['From: Parcel <parcel@localhost>', 'To: bob@example.com', `Subject: ${subject}`, 'Content-Type: text/plain; charset=utf-8', '', body].join('\r\n');
}

/**
 * The fetch stub answers JSON only; the raw message is text/plain, so requests for kept messages
 * are answered here and everything else goes on to the stub.
 */
function outboxServer({ list, raw = {}, routes = {} }: { list: OutboxResponse; raw?: Record<string, string>; routes?: Record<string, StubHandler> }) {
  const network = stubFetch({ ...signedIn(), 'GET /api/dashboard/mail': json(list), ...routes });
  const jsonFetch = globalThis.fetch;
  const rawRequests: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost:8080');
      const id = /^\/api\/dashboard\/mail\/([^/]+)$/.exec(url.pathname)?.[1];
      const text = id === undefined ? undefined : raw[decodeURIComponent(id)];
      if (text === undefined) return jsonFetch(input, init);
      rawRequests.push(decodeURIComponent(id!));
      return new Response(text, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
    }),
  );
  return { ...network, rawRequests };
}

describe('Outbox page', () => {
  it('lists the kept messages newest first with recipient, subject, kind and time', async () => {
    outboxServer({
      list: {
        transport: 'files',
        messages: [
          message({ id: 'm_new', to: 'carol@example.com', subject: 'Your files are ready', createdAt: new Date(Date.now() - 2 * 3_600_000).toISOString() }),
          message({ id: 'm_old', to: 'bob@example.com', subject: 'Reminder', tag: 'request.reminder', createdAt: '2026-01-05T09:30:00.000Z' }),
        ],
      },
    });
    renderApp('/outbox');

    expect(await screen.findByRole('heading', { name: 'Outbox', level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/Without an SMTP server, Parcel writes outgoing mail to files instead of sending it/)).toBeInTheDocument();
    const rows = within(screen.getByRole('list', { name: 'Messages' })).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Your files are ready');
    expect(rows[0]).toHaveTextContent('To carol@example.com');
    expect(rows[0]).toHaveTextContent('Transfer sent');
    expect(within(rows[0]!).getByText('2 hours ago')).toHaveAttribute('dateTime', expect.any(String));
    expect(rows[1]).toHaveTextContent('Reminder');
    expect(rows[1]).toHaveTextContent('To bob@example.com');
    expect(rows[1]).toHaveTextContent('request.reminder');
    expect(rows[1]!.querySelector('time')).toHaveAttribute('dateTime', '2026-01-05T09:30:00.000Z');
  });

  it('shows the chosen message decoded in the preview, its raw source one click away, fetching each message once', async () => {
    const first = message({ id: 'm_1', subject: 'Ada sent you 2 files' });
    const second = message({ id: 'm_2', subject: 'Ada sent you a contract', to: 'dan@example.com' });
    const network = outboxServer({
      list: { transport: 'files', messages: [second, first] },
      raw: { m_1: rawMessage(first.subject, 'Download: http://localhost:8080/t/abc'), m_2: rawMessage(second.subject, 'Signed copy attached.') },
    });
    const { user } = renderApp('/outbox');

    const preview = await screen.findByRole('region', { name: 'Message' });
    expect(within(preview).getByText(/Choose a message/)).toBeInTheDocument();

    const firstButton = screen.getByRole('button', { name: /Ada sent you 2 files/ });
    await user.click(firstButton);
    expect(firstButton).toHaveAttribute('aria-current', 'true');
    const text = await within(preview).findByLabelText('Message text');
    expect(text.tagName).toBe('PRE');
    expect(text.textContent).toBe('Download: http://localhost:8080/t/abc');
    expect(within(preview).getByText('bob@example.com')).toBeInTheDocument();

    await user.click(within(preview).getByRole('button', { name: 'Show raw source' }));
    const source = within(preview).getByLabelText('Message source');
    expect(source.textContent).toBe(rawMessage(first.subject, 'Download: http://localhost:8080/t/abc'));
    await user.click(within(preview).getByRole('button', { name: 'Show decoded message' }));

    // Keyboard: Tab back to the other message and press Enter.
    firstButton.focus();
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    expect(screen.getByRole('button', { name: /Ada sent you a contract/ })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await within(preview).findByText(/Signed copy attached\./)).toBeInTheDocument();
    expect(firstButton).not.toHaveAttribute('aria-current');

    await user.click(firstButton);
    expect(await within(preview).findByText(/Download: http:\/\/localhost:8080\/t\/abc/)).toBeInTheDocument();
    expect(network.rawRequests).toEqual(['m_1', 'm_2']);
  });

  it('shows markup in a message as text and never runs it', async () => {
    const hostile = rawMessage('<b>Hi</b>', '<script>alert(1)</script><img src=x onerror="alert(2)">');
    outboxServer({
      list: { transport: 'files', messages: [message({ id: 'm_evil', subject: '<b>Hi</b>' })] },
      raw: { m_evil: hostile },
    });
    const { user } = renderApp('/outbox');

    await user.click(await screen.findByRole('button', { name: /<b>Hi<\/b>/ }));

    const preview = screen.getByRole('region', { name: 'Message' });
    const text = await within(preview).findByLabelText('Message text');
    expect(text.textContent).toBe('<script>alert(1)</script><img src=x onerror="alert(2)">');
    expect(within(preview).getByText('<b>Hi</b>')).toBeInTheDocument();
    await user.click(within(preview).getByRole('button', { name: 'Show raw source' }));
    const source = within(preview).getByLabelText('Message source');
    expect(source.textContent).toBe(hostile);
    expect(preview.querySelector('script')).toBeNull();
    expect(preview.querySelector('img')).toBeNull();
    expect(preview.querySelector('b')).toBeNull();
    expect(source.children).toHaveLength(0);
  });

  it("shows the server's message when a message cannot be read", async () => {
    outboxServer({
      list: { transport: 'files', messages: [message({ id: 'm_gone' })] },
      routes: { 'GET /api/dashboard/mail/:id': apiError(404, 'not_found', 'Message not found') },
    });
    const { user } = renderApp('/outbox');

    await user.click(await screen.findByRole('button', { name: /Ada sent you 2 files/ }));

    const preview = screen.getByRole('region', { name: 'Message' });
    expect(await within(preview).findByRole('alert')).toHaveTextContent('Message not found');
    expect(within(preview).queryByLabelText('Message text')).not.toBeInTheDocument();
  });

  it('joins a link that quoted-printable broke across lines, so it can be copied whole', async () => {
    const link = `http://localhost:8080/t/dWbyqt95dGAV3NthvcPgjl?r=${'eyJhbGciOiJIUzI1NiJ9'.repeat(4)}`;
    const encoded = `Download: ${link}`.replace(/=/g, '=3D').replace(/(.{70})/g, '$1=\r\n');
    const raw = ['To: =?UTF-8?Q?Zo=C3=AB?= <zoe@example.com>', 'Subject: Files', 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: quoted-printable', '', encoded].join('\r\n');
    outboxServer({ list: { transport: 'files', messages: [message({ id: 'm_qp' })] }, raw: { m_qp: raw } });
    const { user } = renderApp('/outbox');

    await user.click(await screen.findByRole('button', { name: /Ada sent you 2 files/ }));
    const preview = screen.getByRole('region', { name: 'Message' });
    expect((await within(preview).findByLabelText('Message text')).textContent).toBe(`Download: ${link}`);
    expect(within(preview).getByText('Zoë <zoe@example.com>')).toBeInTheDocument();
  });

  it('says mail goes through SMTP and is not kept, with no list, when SMTP is configured', async () => {
    outboxServer({ list: { transport: 'smtp', messages: [] } });
    renderApp('/outbox');

    expect(await screen.findByText(/goes through the configured SMTP server and is not kept/)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Messages' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Raw message' })).not.toBeInTheDocument();
  });

  it('says so when no mail has been kept yet', async () => {
    outboxServer({ list: { transport: 'files', messages: [] } });
    renderApp('/outbox');

    expect(await screen.findByRole('heading', { name: 'No mail yet' })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Messages' })).not.toBeInTheDocument();
  });

  it("shows the server's message when the outbox cannot be listed", async () => {
    // React and the router report the error that the route's error boundary shows.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubFetch({ ...signedIn(), 'GET /api/dashboard/mail': apiError(500, 'internal_error', 'The outbox could not be read') });
    renderApp('/outbox');

    expect(await screen.findByRole('alert')).toHaveTextContent('The outbox could not be read');
  });

  it('is reached from the Settings page', async () => {
    outboxServer({
      list: { transport: 'files', messages: [message()] },
      routes: { 'GET /api/v1/me': json(account()), 'GET /api/v1/me/referral': json(referral) },
    });
    const { user, router } = renderApp('/settings');

    await user.click(await screen.findByRole('link', { name: 'Outbox' }));

    expect(await screen.findByRole('heading', { name: 'Outbox', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/outbox');
  });
});
