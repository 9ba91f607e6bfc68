import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { PublicCollection } from '../../../../contract/public-collections';
import type { UploadTarget } from '../../../../contract/transfers';
import { UploadButtons } from '../../../components/uploader/upload-buttons';
import type { FileUploaderHandle } from '../../../components/uploader/file-uploader';
import { UploadsPanel } from '../../../components/uploader/uploads-panel';
import { useIntl } from '../../../lib/intl';
import { folderIdOf, UploadSession, type UploadRegistrar } from '../../../lib/uploads/upload-session';
import { addGuestFiles, collectionKeys } from '../api/public-collection-api';

/**
 * A contributor guest's files are registered through the collection's public API, into the folder being viewed
 * (one request per folder), each under its relative path. A file removed before it finished is left to the
 * server's sweep of abandoned uploads: a guest deletes nothing of a collection.
 */
function guestRegistrar(slug: string, onRegistered: () => void): UploadRegistrar {
  return {
    async register(files) {
      const byFolder = new Map<string | null, number[]>();
      files.forEach((file, index) => byFolder.set(folderIdOf(file.destination), [...(byFolder.get(folderIdOf(file.destination)) ?? []), index]));
      const targets: UploadTarget[] = [];
      for (const [folderId, indexes] of byFolder) {
        const batch = indexes.map((i) => {
          const { name, size, mimeType, path } = files[i]!;
          return { name, size, ...(mimeType ? { mimeType } : {}), path: path ?? null };
        });
        const added = await addGuestFiles(slug, batch, folderId);
        indexes.forEach((fileIndex, j) => {
          const target = added.files[j];
          if (target) targets[fileIndex] = target;
        });
      }
      onRegistered();
      return { ownerId: slug, targets };
    },
    async unregister() {},
  };
}

/**
 * What a guest invited to contribute sees: where they may add files, the pickers while they are there, and the
 * shared uploader (progress, pause, resume, retry, tokens renewed). Loaded only for them, so no other visitor's page
 * carries the uploader.
 */
export default function GuestContributions({ slug, collection, folderId }: { slug: string; collection: PublicCollection; folderId: string | null }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const uploader = useRef<FileUploaderHandle>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: collectionKeys.all(slug) });
  const [session] = useState(() => {
    const created = new UploadSession({ storageKey: `parcel.guest.uploads.${slug}`, ownerId: slug, registrar: guestRegistrar(slug, () => void refresh()) });
    const remembered = created.remembered();
    if (remembered?.ownerId === slug) created.resume(remembered);
    return created;
  });
  const allowedId = collection.upload?.folderId ?? null;
  const allowed = allowedId === null ? undefined : collection.folders.find((f) => f.id === allowedId);
  const here = folderId === null ? undefined : collection.folders.find((f) => f.id === folderId);
  const canHere = allowedId === null || (here !== undefined && allowed !== undefined && (here.id === allowed.id || here.path.startsWith(`${allowed.path}/`)));
  // Where files may go, and whether the folder being viewed is such a place.
  const scope = canHere ? (allowed ? 'inside' : 'anywhere') : 'outside';

  return (
    <section aria-labelledby="contribute-title" className="space-y-3 rounded-xl border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h2 id="contribute-title" className="text-base font-semibold text-zinc-900 dark:text-zinc-50">
            {intl.formatMessage({ id: 'guest.addFiles', defaultMessage: 'Add files' })}
          </h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {intl.formatMessage(
              {
                id: 'guest.whereFilesGo',
                defaultMessage:
                  '{scope, select, inside {You can add files to “{folder}” and the folders in it. They go into the folder you are viewing.} outside {You can add files to “{folder}” and the folders in it. Open “{folder}” to add files there.} other {You can add files anywhere in this collection. They go into the folder you are viewing.}}',
              },
              { scope, folder: <bdi key="folder">{allowed?.path ?? ''}</bdi> },
            )}
          </p>
        </div>
        {canHere ? (
          <div className="flex flex-wrap gap-2">
            <UploadButtons onFiles={(files) => uploader.current?.addFiles(files)} primary={false} />
          </div>
        ) : null}
      </div>
      <UploadsPanel
        ref={uploader}
        session={session}
        label={intl.formatMessage({ id: 'guest.uploadsLabel', defaultMessage: 'Files you are adding to {title}' }, { title: collection.title })}
        note={intl.formatMessage({ id: 'guest.uploadsNote', defaultMessage: 'Files and whole folders go into the folder you are viewing.' })}
        folderId={canHere ? folderId : allowedId}
        folders={collection.folders}
        serverFiles={[]}
        onDiscard={() => undefined}
        onUploaded={() => void refresh()}
      />
    </section>
  );
}
