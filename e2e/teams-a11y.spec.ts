import { expect, test } from '@playwright/test';
import { checkPages, viewports } from './a11y-support';
import { makeWorkspacePaid, signUp } from './support';
import { linkInMail } from './transfer-support';

/**
 * The team's pages (Members with an open invitation, Activity, and the join page an invited
 * person opens), each in the light and the dark theme, on a desktop and a phone: axe finds no
 * serious or critical violation.
 */

for (const viewport of viewports) {
  test(`members, activity and the join page pass axe in both themes (${viewport.name})`, async ({ browser }) => {
    test.setTimeout(90_000);
    const owner = await browser.newContext({ viewport: viewport.size });
    const invited = await browser.newContext({ viewport: viewport.size });
    try {
      const page = await owner.newPage();
      await signUp(page, 'Acme Studio');
      await makeWorkspacePaid(page);
      const email = `invited-${Date.now()}@example.test`;
      await page.goto('/members');
      const form = page.getByRole('region', { name: 'Invite someone' });
      await form.getByLabel('Email').fill(email);
      await form.getByRole('button', { name: 'Send the invitation' }).click();
      const link = new URL(await linkInMail(page, 'workspace.invitation', email, /https?:\/\/[^\s]+\/join\?token=[A-Za-z0-9]+/));
      const joinPage = await invited.newPage();

      for (const theme of ['light', 'dark'] as const) {
        await checkPages(page, theme, viewport.name, [
          ['the members page', '/members', () => page.getByRole('region', { name: 'Invitations' }).getByText(email)],
          ['the activity log', '/activity', () => page.getByRole('list', { name: 'Activity, newest first' }).getByText(`invited ${email} as member`)],
        ]);
        await checkPages(joinPage, theme, viewport.name, [['the join page', link.pathname + link.search, () => joinPage.getByLabel('Your name')]]);
      }
      await expect(joinPage.getByRole('heading', { level: 1 })).toContainText('Acme Studio');
    } finally {
      await Promise.all([owner.close(), invited.close()]);
    }
  });
}
