import { test } from '@playwright/test';
import { viewports } from './a11y-support';
import { dashboardPagesPassAxe } from './dashboard-a11y-support';

const viewport = viewports[0]!;

test(`transfers list, a sent transfer, a draft and settings pass axe in both themes (${viewport.name})`, async ({ browser }) => {
  // Four pages in two themes, each loaded and checked by axe: on a busy 2-core CI machine beside another worker, two minutes.
  test.setTimeout(240_000);
  await dashboardPagesPassAxe(browser, viewport);
});
