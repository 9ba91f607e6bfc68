import type { Download } from '../api/get-transfer-downloads';

/** One page visit of a recipient (or anyone with the link): the files fetched in it share a sessionId. */
export interface Visit {
  sessionId: string;
  recipientEmail: string | null;
  startedAt: string;
  downloads: Download[];
}

/** Visits newest first; inside a visit, files in the order they were started. */
export function groupVisits(downloads: readonly Download[]): Visit[] {
  const bySession = new Map<string, Visit>();
  const sorted = [...downloads].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  for (const download of sorted) {
    const visit = bySession.get(download.sessionId);
    if (visit) {
      visit.downloads.push(download);
      visit.recipientEmail ??= download.recipientEmail;
    } else {
      bySession.set(download.sessionId, {
        sessionId: download.sessionId,
        recipientEmail: download.recipientEmail,
        startedAt: download.createdAt,
        downloads: [download],
      });
    }
  }
  return [...bySession.values()].sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt));
}
