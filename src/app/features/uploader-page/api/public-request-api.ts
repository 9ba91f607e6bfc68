import { queryOptions } from '@tanstack/react-query';
import type { PublicUploadRequest, StartedSubmission, SubmissionProgress } from '../../../../contract/public-requests';
import type { UploadTarget } from '../../../../contract/transfers';
import type { FileToRegister } from '../../../lib/uploads/upload-session';
import { firstViewGcTime, takePublicPageData } from '../../../lib/public-page-data';
import { publicRequest } from '../../recipient';

/**
 * The uploader's side of an upload request (`/api/public/requests/<slug>`), as the page at
 * `/r/<slug>` calls it: the same public client as the recipient pages, so no cookie and no
 * workspace credential is ever sent, and the referrer is dropped. A submission's calls carry its
 * own token (SUBMISSION_TOKEN_HEADER of the contract). Only types come from the contract, so the
 * page's chunk does not carry zod.
 */

const TOKEN_HEADER = 'x-submission-token';

/** What the uploader typed in step 1; "" for an email or message left out. */
export interface UploaderDetails {
  name: string;
  email: string;
  message: string;
}

export interface SubmissionRef {
  id: string;
  token: string;
}

const requestPath = (slug: string) => `/requests/${encodeURIComponent(slug)}`;
const submissionPath = (slug: string, id: string) => `${requestPath(slug)}/submissions/${encodeURIComponent(id)}`;

export function getPublicRequest(slug: string): Promise<PublicUploadRequest> {
  return publicRequest<PublicUploadRequest>(requestPath(slug));
}

export function startSubmission(slug: string, details: UploaderDetails, files: FileToRegister[]): Promise<StartedSubmission> {
  return publicRequest<StartedSubmission>(`${requestPath(slug)}/submissions`, {
    method: 'POST',
    json: {
      name: details.name.trim(),
      email: details.email.trim() || null,
      message: details.message.trim() || null,
      files,
    },
  });
}

export function addSubmissionFiles(slug: string, submission: SubmissionRef, files: FileToRegister[]): Promise<{ tusEndpoint: string; files: UploadTarget[] }> {
  return publicRequest(`${submissionPath(slug, submission.id)}/files`, { method: 'POST', json: { files }, headers: { [TOKEN_HEADER]: submission.token } });
}

export function cancelSubmissionFile(slug: string, submission: SubmissionRef, fileId: string): Promise<{ deleted: true }> {
  return publicRequest(`${submissionPath(slug, submission.id)}/files/${encodeURIComponent(fileId)}`, {
    method: 'DELETE',
    headers: { [TOKEN_HEADER]: submission.token },
  });
}

export async function finishSubmission(slug: string, submission: SubmissionRef): Promise<SubmissionProgress> {
  const { submission: progress } = await publicRequest<{ submission: SubmissionProgress }>(`${submissionPath(slug, submission.id)}/finish`, {
    method: 'POST',
    json: {},
    headers: { [TOKEN_HEADER]: submission.token },
  });
  return progress;
}

/**
 * The request as the page found it when it opened. Read once: never refetched behind the
 * uploader's back (the public API is rate limited per address, and a pause while files are on the
 * way is learnt from the next call that adds files, which keeps the uploads going).
 */
export function publicRequestQueryOptions(slug: string) {
  return queryOptions({
    queryKey: ['public', 'upload-request', slug] as const,
    queryFn: () => getPublicRequest(slug),
    // As the page's HTML carries it, when it does.
    initialData: () => takePublicPageData('request', slug, 'request', (d) => d.request),
    staleTime: Infinity,
    // Gone as soon as nobody shows it, except the first view's (see FIRST_VIEW_GC_MS).
    gcTime: firstViewGcTime('request', slug, 0),
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
