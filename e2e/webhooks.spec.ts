import { expect, test } from '@playwright/test';
import { setWorkspacePlan, signUp } from './support';
import { expectNoSeriousA11yViolations } from './transfer-support';
import { answers, startReceiver, verifySignature } from '../src/server/test/webhook-receiver.js';

/**
 * Issue 5 as an integrator lives it: add a push endpoint in the dashboard, keep its secret, send a
 * test event, see the delivery succeed, and check on the receiving end that it is signed with
 * that secret.
 */
test('a push endpoint gets a signed test event and the dashboard shows the 200', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const receiver = await startReceiver(answers.status(200, 'received'));
  const hookUrl = `${receiver.url}/hook`;
  try {
    await signUp(page, 'Hook Studio');
    await setWorkspacePlan(page, 'free');
    await page.reload();
    await page.getByRole('link', { name: 'Webhooks' }).first().click();
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No webhook endpoints yet' })).toBeVisible();

    // A free workspace: paid events are offered switched off.
    await expect(page.getByRole('checkbox', { name: 'collection.file_uploaded' })).toBeDisabled();
    await page.getByLabel('Endpoint URL').fill(hookUrl);
    await page.getByLabel('Description (optional)').fill('E2E receiver');
    await page.getByRole('checkbox', { name: 'transfer.ready' }).check();
    await page.getByRole('button', { name: 'Create endpoint' }).click();

    const secretField = page.getByRole('textbox', { name: 'Signing secret' });
    await expect(secretField).toHaveValue(/^whsec_[0-9A-Za-z_-]{20,}$/);
    const secret = await secretField.inputValue();
    const created = page.getByRole('region', { name: `Endpoint ${hookUrl} created` });
    await created.getByRole('button', { name: 'Copy' }).first().click();
    await expect(created.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await expect(created.getByRole('figure', { name: 'Verify a signature (Node.js)' })).toContainText('timingSafeEqual');

    // The free plan's one endpoint is used: the list says so instead of offering a form.
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('region', { name: 'Endpoint limit reached' })).toBeVisible();
    await expect(secretField).toHaveCount(0);

    await page.getByRole('link', { name: hookUrl }).click();
    await expect(page.getByRole('heading', { name: hookUrl, level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Send test event' }).click();

    const deliveries = page.getByRole('region', { name: 'Deliveries' });
    const testDelivery = deliveries.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'webhook.test' }) });
    await expect(testDelivery.getByText('200 OK')).toBeVisible({ timeout: 20_000 });
    await expect(testDelivery.getByText('Delivered')).toBeVisible();
    const lastSuccess = page.getByRole('region', { name: 'Overview' }).locator('dl > div').filter({ hasText: 'Last success' }).getByRole('definition');
    await expect(lastSuccess).toHaveText('just now');

    const received = receiver.requests.filter((request) => request.headers['service-event-type'] === 'webhook.test');
    expect(received).toHaveLength(1);
    const [hook] = received;
    expect(hook!.method).toBe('POST');
    expect(hook!.path).toBe('/hook');
    expect(hook!.headers['content-type']).toMatch(/^application\/json/);
    expect(verifySignature(secret, hook!.headers['service-signature'], hook!.rawBody, new Date())).toBe(true);
    expect(verifySignature(`${secret}x`, hook!.headers['service-signature'], hook!.rawBody, new Date())).toBe(false);
    const event = JSON.parse(hook!.rawBody.toString('utf8'));
    expect(event).toMatchObject({ type: 'webhook.test', data: { endpoint: { id: expect.any(String) } } });
    expect(hook!.headers['service-event-id']).toBe(event.id);

    // The dashboard shows the delivery id the receiver got, and the exact body it was sent.
    await expect(testDelivery.getByText(hook!.headers['service-delivery-id'] as string, { exact: true })).toBeVisible();
    await testDelivery.getByRole('button', { name: 'Show request and response of attempt 1' }).click();
    await expect(testDelivery.getByRole('figure', { name: 'Request body' }).locator('code')).toHaveText(hook!.rawBody.toString('utf8'));
    await expect(testDelivery.getByRole('figure', { name: 'Response body (first 2 KiB)' })).toContainText('received');
    if (process.env.UPDATE_SCREENSHOTS) await page.screenshot({ path: 'docs/screenshots/webhooks.png', fullPage: true });
    await expectNoSeriousA11yViolations(page, 'the webhook endpoint page');
  } finally {
    await receiver.close();
  }
});
