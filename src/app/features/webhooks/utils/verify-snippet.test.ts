import { createHmac, timingSafeEqual } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyFunctionSnippet } from './verify-snippet';

type Verify = (rawBody: Buffer | string, header: string | undefined, secret: string, toleranceSeconds?: number) => boolean;

/** The snippet as a user would paste it, minus the module syntax `new Function` cannot take. */
function loadSnippet(): Verify {
  const body = verifyFunctionSnippet.replace(/^import .*$/m, '').replace('export function', 'function');
  return new Function('createHmac', 'timingSafeEqual', 'Buffer', `${body}\nreturn verifyWebhook;`)(createHmac, timingSafeEqual, Buffer) as Verify;
}

const secret = 'whsec_J1tq3w2n0v5XcN8yR6bZ4mK9pL7sD2fG5hA0eU3iO1k';
const rawBody = '{"id":"evt_1","type":"webhook.test","createdAt":"2026-11-20T10:00:00.000Z","data":{"message":"Hello"}}';

function sign(body: string, t: number, key = secret) {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

const now = () => Math.floor(Date.now() / 1000);

describe('the verify-a-signature snippet', () => {
  const verify = loadSnippet();

  it('accepts a delivery signed with the secret over the raw body', () => {
    expect(verify(Buffer.from(rawBody), sign(rawBody, now()), secret)).toBe(true);
    expect(verify(rawBody, sign(rawBody, now() - 60), secret)).toBe(true);
  });

  it('refuses a body that was re-serialized, changed or signed with another secret', () => {
    const reserialized = JSON.stringify(JSON.parse(rawBody), null, 2);
    expect(verify(reserialized, sign(rawBody, now()), secret)).toBe(false);
    expect(verify(rawBody.replace('Hello', 'Hullo'), sign(rawBody, now()), secret)).toBe(false);
    expect(verify(rawBody, sign(rawBody, now(), 'whsec_other'), secret)).toBe(false);
  });

  it('refuses a signature more than five minutes old, and a missing or garbled header', () => {
    expect(verify(rawBody, sign(rawBody, now() - 301), secret)).toBe(false);
    expect(verify(rawBody, undefined, secret)).toBe(false);
    expect(verify(rawBody, 'v1=abc', secret)).toBe(false);
    expect(verify(rawBody, `t=${now()},v1=zz`, secret)).toBe(false);
  });
});
