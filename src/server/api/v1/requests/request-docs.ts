/** Text shared by the descriptions of the upload request operations. */
export const PAYLOAD =
  'An upload request is a public page (`url`, `/r/<slug>`) where anyone with the link sends files, without an account, into `collectionId` (under `folderId`). Each submission gets its own folder there, named from the uploader and the date; its files are collection files with source `file_request`. When a submission is complete, `request.submitted` is sent and the workspace is mailed (our design: the spec does not show the payload).';
