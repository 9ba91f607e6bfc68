import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../db/schema/index.js';
import type { OutgoingMessage } from '../mail/message.js';
import { recordSentMail } from '../test/mail.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { markReadyIfComplete } from './lifecycle.js';

let server: TestServer;
let key: string;
let workspaceName: string;
/** Every message handed to the mailer (which still writes it out as usual). */
let sent: OutgoingMessage[];
beforeAll(async () => {
  server = await startTestServer();
  const ws = await server.createWorkspace({ plan: 'paid' });
  workspaceName = ((await (await server.fetch('/api/v1/me', { token: await ws.createKey(['contacts:read']) })).json()) as { workspace: { name: string } }).workspace.name;
  key = await ws.createKey(['transfers:write']);
  sent = recordSentMail(server);
});
afterAll(() => server.stop());

async function sendTo(recipient: string, body: Record<string, unknown>) {
  const created = await server.fetch('/api/v1/transfers', { method: 'POST', token: key, json: { recipients: [recipient], ...body } });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await server.services.db.update(files).set({ state: 'complete', crc32: '00000000', completedAt: server.clock.now() }).where(eq(files.ownerId, id));
  await markReadyIfComplete(server.services, id);
  expect((await server.fetch(`/api/v1/transfers/${id}/finalize`, { method: 'POST', token: key, json: {} })).status).toBe(200);
  return sent.find((m) => m.to === recipient)!;
}

describe('the mail a recipient gets', () => {
  it('lists every file with its size and the total, in the text and the HTML part alike', async () => {
    const mail = await sendTo('list@example.test', {
      title: 'Q3 <report>',
      files: [
        { name: 'report.pdf', size: 2_500_000 },
        { name: 'photo <1>.jpg', size: 800, path: 'pics/2026' },
        { name: 'empty.txt', size: 0 },
      ],
    });
    expect(mail.subject).toBe(`${workspaceName} sent you Q3 <report>`);
    const text = mail.text;
    expect(text).toContain(`${workspaceName} sent you “Q3 <report>”`);
    expect(text).toContain('3 files, 2.5 MB in all');
    expect(text).toContain('report.pdf  2.5 MB');
    expect(text).toContain('pics/2026/photo <1>.jpg  800 bytes');
    expect(text).toContain('empty.txt  0 bytes');
    const html = String(mail.html);
    expect(html).toContain('pics/2026/photo &lt;1&gt;.jpg');
    expect(html).toContain('2.5 MB');
    expect(html).toContain('3 files, 2.5 MB in all');
    expect(html).not.toContain('<1>');
  });

  it('names the first files of a long transfer and says how many more there are', async () => {
    const files = Array.from({ length: 30 }, (_, i) => ({ name: `scan-${String(i + 1).padStart(2, '0')}.png`, size: 1000 }));
    const mail = await sendTo('many@example.test', { files });
    expect(mail.text).toContain('scan-20.png');
    expect(mail.text).not.toContain('scan-21.png');
    expect(mail.text).toContain('and 10 more files');
    expect(mail.text).toContain('30 files, 30 KB in all');
  });
});
