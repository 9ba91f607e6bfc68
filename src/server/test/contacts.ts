import { expect } from 'vitest';
import { ContactResponseSchema, type Contact, type ContactInput } from '../../contract/contacts.js';
import type { ErrorBody } from '../../contract/errors.js';
import type { TestServer } from './harness.js';

/** Creates a contact through the API and returns it parsed through the contract. */
export async function createContact(server: TestServer, token: string, input: ContactInput): Promise<Contact> {
  const res = await server.fetch('/api/v1/contacts', { method: 'POST', token, json: input });
  expect(res.status).toBe(201);
  return ContactResponseSchema.parse(await res.json()).contact;
}

/** The field paths a `400 invalid_request` names. */
export function fieldPaths(error: ErrorBody['error']): string[] {
  expect(error.code).toBe('invalid_request');
  return (error.details.fields as { path: string }[]).map((f) => f.path);
}
