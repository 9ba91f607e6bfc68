import type { Transfer, TransferFile, TransferSummary } from '../../../../contract/transfers';
import type { DownloadLinks } from '../api/get-download-links';
import type { Download, Recipient, TransferDownloads } from '../api/get-transfer-downloads';

const day = 86_400_000;
const fromNow = (ms: number) => new Date(Date.now() + ms).toISOString();

export function transferSummary(overrides: Partial<TransferSummary> = {}): TransferSummary {
  return {
    id: 'tr_1',
    slug: 'slug1',
    url: 'http://localhost:8080/t/slug1',
    title: 'Quarterly report',
    status: 'active',
    sizeBytes: 2_500_000,
    recipients: ['grace@example.com'],
    e2ee: false,
    downloadCount: 3,
    maxDownloads: 10,
    finalizedAt: fromNow(-day),
    // Finalized once every file had arrived, unless a test says otherwise (a draft: both null).
    sendRequestedAt: overrides.finalizedAt === undefined ? fromNow(-day) : overrides.finalizedAt,
    expiresAt: fromNow(5 * day + 60_000),
    createdAt: fromNow(-day),
    fileCount: 2,
    firstFileName: 'report.pdf',
    sentBy: { kind: 'member', id: 'usr_1', name: 'Ada Lovelace', email: 'ada@example.com' },
    ...overrides,
  };
}

export function transferFile(overrides: Partial<TransferFile> = {}): TransferFile {
  return {
    id: 'fi_1',
    name: 'report.pdf',
    sizeBytes: 2_000_000,
    mimeType: 'application/pdf',
    path: null,
    scanResult: 'clean',
    scanSignature: null,
    crc32: 'cbf43926',
    state: 'complete',
    error: null,
    createdAt: fromNow(-day),
    ...overrides,
  };
}

export function transfer(overrides: Partial<Transfer> = {}): Transfer {
  const { firstFileName: _first, ...summary } = transferSummary(overrides.finalizedAt === undefined ? {} : { finalizedAt: overrides.finalizedAt });
  return {
    ...summary,
    hasPassword: false,
    message: 'Here are the numbers.',
    recipientLanguages: {},
    notifications: { downloads: true, beforeExpiry: true },
    files: [
      transferFile(),
      transferFile({ id: 'fi_2', name: 'q3.csv', path: 'data/2026', sizeBytes: 500_000, mimeType: 'text/csv', crc32: '0a1b2c3d' }),
    ],
    ...overrides,
  };
}

export function recipient(overrides: Partial<Recipient> = {}): Recipient {
  return {
    id: 'rc_1',
    email: 'grace@example.com',
    notifiedAt: fromNow(-day),
    downloaded: true,
    opened: false,
    bouncedAt: null,
    bounceKind: null,
    ...overrides,
  };
}

export function download(overrides: Partial<Download> = {}): Download {
  return {
    id: 'dl_1',
    fileName: 'report.pdf',
    recipientEmail: 'grace@example.com',
    sessionId: 'ses_1',
    ipTruncated: null,
    createdAt: fromNow(-2 * 3_600_000),
    completedAt: fromNow(-2 * 3_600_000 + 5_000),
    ...overrides,
  };
}

export function transferDownloads(overrides: Partial<TransferDownloads> = {}): TransferDownloads {
  return { downloads: [], recipients: [], totalDownloads: 0, ...overrides };
}

export function downloadLinks(overrides: Partial<DownloadLinks> = {}): DownloadLinks {
  return {
    expiresAt: fromNow(3_600_000),
    files: [
      { fileId: 'fi_1', name: 'report.pdf', path: null, sizeBytes: 2_000_000, crc32: 'cbf43926', url: 'http://localhost:8080/dl/f/fi_1?sig=a' },
      { fileId: 'fi_2', name: 'q3.csv', path: 'data/2026', sizeBytes: 500_000, crc32: '0a1b2c3d', url: 'http://localhost:8080/dl/f/fi_2?sig=b' },
    ],
    zip: { name: 'Quarterly report.zip', sizeBytes: 2_500_321, url: 'http://localhost:8080/dl/z/tr_1?sig=c' },
    ...overrides,
  };
}
