import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, stubFetch } from '../../../test/fetch-stub';
import { renderApp } from '../../../test/render-app';
import type { OpenApiDocument } from '../utils/openapi';

const errorResponse = { description: '`unauthorized`: no valid credential.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

const openApi: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Parcel API', version: '1.0.0', description: 'The public API.\n\n## Authentication\nSend `Authorization: Bearer <key>`.' },
  servers: [{ url: 'http://localhost:8080/api/v1' }],
  tags: [
    { name: 'Account', description: 'The credential and its workspace.' },
    { name: 'Transfers', description: 'Send files.' },
    { name: 'Webhook events', description: 'What the service sends to your endpoint.' },
  ],
  webhooks: {
    'transfer.ready': {
      post: {
        operationId: 'event_transfer_ready',
        tags: ['Webhook events'],
        summary: 'transfer.ready',
        description: 'A transfer was sent and every file finished uploading.',
        security: [],
        parameters: [{ name: 'Service-Signature', in: 'header', required: true, description: 'HMAC of t.body.', schema: { type: 'string' } }],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, createdAt: { type: 'string', format: 'date-time' } } } } },
        },
        responses: { 200: { description: 'Any 2xx acknowledges the event.' } },
      },
    },
  },
  paths: {
    '/me': {
      get: {
        operationId: 'getMe',
        tags: ['Account'],
        summary: 'Who am I',
        description: 'The credential making the call.\n\nAny scope. <img src=x onerror=alert(1)>',
        security: [{ bearerAuth: [] }],
        'x-required-scope': 'any',
        'x-plan': 'free',
        responses: {
          200: { description: 'The account', content: { 'application/json': { schema: { $ref: '#/components/schemas/Account' } } } },
          401: errorResponse,
        },
      },
    },
    '/transfers/{id}/files': {
      parameters: [{ name: 'id', in: 'path', required: true, description: 'The transfer.', schema: { type: 'string' } }],
      post: {
        operationId: 'addTransferFile',
        tags: ['Transfers'],
        summary: 'Add a file',
        security: [{ bearerAuth: ['transfers:write'] }],
        'x-required-scope': 'transfers:write',
        'x-plan': 'paid',
        parameters: [
          { name: 'Idempotency-Key', in: 'header', required: false, description: 'Makes retries safe.', schema: { type: 'string' } },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['name', 'size'],
                properties: {
                  name: { type: 'string', maxLength: 255, description: 'File name.' },
                  size: { type: 'integer', minimum: 0 },
                  tags: { type: 'array', items: { $ref: '#/components/schemas/Tag' } },
                },
              },
            },
          },
        },
        responses: { 201: { description: 'The file' }, 402: errorResponse },
      },
    },
  },
  components: {
    schemas: {
      Account: {
        type: 'object',
        required: ['workspace'],
        properties: {
          workspace: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string' }, createdAt: { type: 'string', format: 'date-time' } },
          },
          plan: { type: 'string', enum: ['free', 'paid'] },
          until: { type: ['string', 'null'], format: 'date-time', description: 'When a paid plan ends.' },
        },
      },
      Tag: { type: 'object', properties: { label: { type: 'string' }, parent: { $ref: '#/components/schemas/Tag' } } },
      Error: { type: 'object', properties: { error: { type: 'object', properties: { code: { type: 'string' } } } } },
    },
  },
};

async function openReference() {
  const network = stubFetch({ 'GET /api/v1/openapi.json': json(openApi) });
  const view = renderApp('/docs/api');
  await screen.findByRole('heading', { name: 'Parcel API', level: 1 });
  return { ...view, network };
}

describe('API reference page', () => {
  it('groups operations by tag, with method, path, scope and plan', async () => {
    await openReference();

    const account = screen.getByRole('region', { name: 'Account' });
    const getMe = within(account).getByRole('article', { name: 'Who am I' });
    expect(getMe).toHaveAttribute('id', 'getMe');
    expect(within(getMe).getByText('get')).toBeInTheDocument();
    expect(within(getMe).getByText('/me')).toBeInTheDocument();
    expect(within(getMe).getByText('Any scope')).toBeInTheDocument();
    expect(within(getMe).getByText('Free plan allowed')).toBeInTheDocument();

    const addFile = within(screen.getByRole('region', { name: 'Transfers' })).getByRole('article', { name: 'Add a file' });
    expect(addFile).toHaveAttribute('id', 'addTransferFile');
    expect(within(addFile).getByText('/transfers/{id}/files')).toBeInTheDocument();
    expect(within(addFile).getByText('transfers:write')).toBeInTheDocument();
    expect(within(addFile).getByText('Paid plan')).toBeInTheDocument();
  });

  it('lists parameters, including those declared on the path, and the request body properties', async () => {
    await openReference();
    const addFile = screen.getByRole('article', { name: 'Add a file' });

    const rows = within(addFile).getAllByRole('rowheader').map((cell) => cell.textContent);
    expect(rows).toEqual(['idrequired', 'Idempotency-Key', 'namerequired', 'sizerequired', 'tags', 'tags[].label', 'tags[].parent']);
    expect(within(addFile).getByText('Makes retries safe.')).toBeInTheDocument();
    expect(within(addFile).getByText('max length 255')).toBeInTheDocument();
    expect(within(addFile).getByText('array of Tag')).toBeInTheDocument();
  });

  it('resolves $ref schemas into a nested property table with types and required marks', async () => {
    await openReference();
    const getMe = screen.getByRole('article', { name: 'Who am I' });

    const row = (name: string) => within(getMe).getAllByRole('row').find((r) => within(r).queryByRole('rowheader')?.textContent?.startsWith(name));
    expect(row('workspacerequired')).toHaveTextContent('object');
    expect(row('workspace.namerequired')).toHaveTextContent('string');
    expect(row('workspace.createdAt')).toHaveTextContent('string (date-time)');
    expect(row('until')).toHaveTextContent('string (date-time) | null');
    expect(row('until')).toHaveTextContent('When a paid plan ends.');
    expect(row('plan')).toHaveTextContent('One of: "free", "paid"');
  });

  it('shows response codes with their descriptions', async () => {
    await openReference();
    const getMe = screen.getByRole('article', { name: 'Who am I' });

    expect(within(getMe).getByText('The account')).toBeInTheDocument();
    expect(within(getMe).getByText('unauthorized').tagName).toBe('CODE');
  });

  it('renders descriptions as text, never as HTML', async () => {
    await openReference();

    expect(document.querySelector('img')).toBeNull();
    expect(screen.getByText(/<img src=x onerror=alert\(1\)>/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Authentication' })).toBeInTheDocument();
    expect(screen.getByText('Authorization: Bearer <key>').tagName).toBe('CODE');
  });

  it('documents the webhook events the service sends, with their headers and body', async () => {
    await openReference();

    const events = screen.getByRole('region', { name: 'Webhook events' });
    const ready = within(events).getByRole('article', { name: 'transfer.ready' });
    expect(ready).toHaveAttribute('id', 'event_transfer_ready');
    expect(within(ready).getByText('A transfer was sent and every file finished uploading.')).toBeInTheDocument();
    const rows = within(ready).getAllByRole('rowheader').map((cell) => cell.textContent);
    expect(rows).toEqual(['Service-Signaturerequired', 'idrequired', 'createdAt']);
    expect(within(ready).getByText('Any 2xx acknowledges the event.')).toBeInTheDocument();
  });

  it('has a sidebar linking to every operation and a link to download the document', async () => {
    await openReference();

    const sidebar = screen.getByRole('navigation', { name: 'API reference contents' });
    expect(within(sidebar).getByRole('link', { name: /Who am I/ })).toHaveAttribute('href', '/docs/api#getMe');
    expect(within(sidebar).getByRole('link', { name: /Add a file/ })).toHaveAttribute('href', '/docs/api#addTransferFile');
    expect(screen.getByRole('link', { name: 'Download openapi.json' })).toHaveAttribute('href', '/api/v1/openapi.json');
  });
});
