import type { Folder } from '../../../../contract/collections';
import type { Submission, UploadRequest } from '../../../../contract/requests';

const hour = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** An upload request as `GET /requests/{id}` answers it: open, into the top level of col_1. */
export function uploadRequestFixture(overrides: Partial<UploadRequest> = {}): UploadRequest {
  return {
    id: 'req_1',
    title: 'Signed contracts',
    message: 'Please send the signed pages.',
    collectionId: 'col_1',
    folderId: null,
    url: 'http://localhost:8080/r/Rq7kQ2mR8sT1vW3xY7zA0b',
    status: 'open',
    acceptingFiles: true,
    deadline: null,
    maxFiles: null,
    maxBytes: null,
    allowedTypes: [],
    requireEmail: false,
    submissionCount: 2,
    fileCount: 5,
    sizeBytes: 12_400_000,
    lastSubmissionAt: ago(2 * hour),
    createdBy: null,
    createdAt: ago(72 * hour),
    updatedAt: ago(48 * hour),
    ...overrides,
  };
}

/** One submission of `GET /requests/{id}/submissions`: complete, with two files in its own folder. */
export function submissionFixture(overrides: Partial<Submission> = {}): Submission {
  return {
    id: 'sub_1',
    uploader: { name: 'Grace Hopper', email: 'grace@example.com' },
    message: null,
    status: 'complete',
    sent: true,
    discardAt: null,
    collectionId: 'col_1',
    folderId: 'fo_sub1',
    fileCount: 2,
    sizeBytes: 3_500_000,
    files: [
      { id: 'fi_1', name: 'contract.pdf', sizeBytes: 2_000_000, mimeType: 'application/pdf', folderId: 'fo_sub1', state: 'complete' },
      { id: 'fi_2', name: 'annex.pdf', sizeBytes: 1_500_000, mimeType: 'application/pdf', folderId: 'fo_sub1', state: 'complete' },
    ],
    createdAt: ago(2 * hour),
    completedAt: ago(2 * hour - 60_000),
    ...overrides,
  };
}

export function folderFixture(overrides: Partial<Folder> = {}): Folder {
  return { id: 'fo_1', name: 'Inbox', path: 'Inbox', parentId: null, depth: 0, ...overrides };
}
