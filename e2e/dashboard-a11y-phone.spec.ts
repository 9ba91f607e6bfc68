import { test } from '@playwright/test';
import { viewports } from './a11y-support';
import { dashboardPagesPassAxe } from './dashboard-a11y-support';

const viewport = viewports[1]!;

test(`transfers list, a sent transfer, a draft and settings pass axe in both themes (${viewport.name})`, async ({ browser }) => {
  test.setTimeout(120_000);
  await dashboardPagesPassAxe(browser, viewport);
});
