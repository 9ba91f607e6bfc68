import { expect, type Page } from '@playwright/test';

/** Through the requests page's "New request" dialog, into a folder of a collection; lands on the request's page and returns its public link. */
export async function createRequest(page: Page, details: { title: string; message: string; collection: string; folder: string }) {
  await page.goto('/requests');
  await page.getByRole('button', { name: 'New request' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New upload request' });
  await dialog.getByLabel('Title').fill(details.title);
  await dialog.getByLabel('Message (optional)').fill(details.message);
  await dialog.getByLabel('Collection').selectOption({ label: details.collection });
  // The folder list loads once a collection is chosen.
  await expect(dialog.getByLabel('Folder').getByRole('option', { name: details.folder })).toHaveCount(1);
  await dialog.getByLabel('Folder').selectOption({ label: details.folder });
  await dialog.getByRole('button', { name: 'Create request' }).click();
  await expect(page).toHaveURL(/\/requests\/req_[A-Za-z0-9]+$/);
  await expect(page.getByRole('heading', { name: details.title, level: 1 })).toBeVisible();
  return page.getByRole('textbox', { name: 'Upload link' }).inputValue();
}
