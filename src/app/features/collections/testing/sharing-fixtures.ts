import type { Collection, CollectionSummary, Guest } from '../../../../contract/collections';

const hour = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** A collection as `GET /collections/{id}` answers it. */
export function collectionFixture(overrides: Partial<Collection> = {}): Collection {
  return {
    id: 'col_1',
    title: 'Spring lookbook',
    slug: 'Sp7kQ2mR8sT1vW3xY7zA0b',
    description: 'Final selects',
    visibility: 'private',
    url: 'http://localhost:8080/c/Sp7kQ2mR8sT1vW3xY7zA0b',
    customLink: false,
    reviewMail: 'daily',
    sizeBytes: 48_200_000,
    fileCount: 12,
    coverFileId: null,
    expiresAt: null,
    createdAt: ago(48 * hour),
    updatedAt: ago(3 * hour),
    ...overrides,
  };
}

/** One card of `GET /collections`. */
export function collectionSummaryFixture(overrides: Partial<CollectionSummary> = {}): CollectionSummary {
  return {
    id: 'col_1',
    title: 'Spring lookbook',
    slug: 'Sp7kQ2mR8sT1vW3xY7zA0b',
    visibility: 'private',
    fileCount: 12,
    sizeBytes: 48_200_000,
    coverFileId: null,
    coverUrl: null,
    updatedAt: ago(3 * hour),
    ...overrides,
  };
}

export function guestFixture(overrides: Partial<Guest> = {}): Guest {
  return { id: 'gu_1', email: 'ada@example.com', role: 'viewer', uploadFolderId: null, invitedAt: ago(26 * hour), lastVisitAt: null, language: null, ...overrides };
}
