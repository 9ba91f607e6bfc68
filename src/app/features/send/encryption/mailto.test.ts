import { describe, expect, it } from 'vitest';
import { linkMailto } from './mailto';

describe('linkMailto', () => {
  it('addresses the typed recipients and carries the full link, key included, in the body', () => {
    const link = 'https://parcel.example/t/abc#v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const href = linkMailto({ recipients: ['grace@example.com', 'ada+files@example.com'], link, title: 'Q3 & more', message: 'Hi', expiresAt: '2026-12-01T10:00:00Z' });
    const url = new URL(href);
    expect(url.protocol).toBe('mailto:');
    expect(url.pathname).toBe('grace@example.com,ada%2Bfiles@example.com');
    expect(url.searchParams.get('subject')).toBe('Files for you: Q3 & more');
    const body = url.searchParams.get('body')!;
    expect(body.startsWith('Hi\r\n')).toBe(true);
    expect(body).toContain(link);
  });
});
