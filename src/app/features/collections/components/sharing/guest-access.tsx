import { useQuery } from '@tanstack/react-query';
import { SelectField } from '../../../../components/text-field';
import { useIntl } from '../../../../lib/intl';
import { foldersQueryOptions } from '../../api/get-folders';
import type { GuestAccess } from '../../api/invite-guests';

/** One value per choice of the select: `viewer`, `contributor:` (anywhere) or `contributor:<folder id>`. */
export const accessValue = (access: GuestAccess) => (access.role === 'viewer' ? 'viewer' : `contributor:${access.uploadFolderId ?? ''}`);
export const accessOf = (value: string): GuestAccess =>
  value === 'viewer' ? { role: 'viewer', uploadFolderId: null } : { role: 'contributor', uploadFolderId: value.slice('contributor:'.length) || null };

/**
 * What a guest may do, as one select: view and download, or also add files anywhere, or into one folder (and the
 * folders in it). The folders are the collection's own, read when the select shows.
 */
export function GuestAccessSelect({
  collectionId,
  label,
  value,
  onChange,
  disabled = false,
  className = '',
}: {
  collectionId: string;
  label: string;
  value: GuestAccess;
  onChange: (access: GuestAccess) => void;
  disabled?: boolean;
  className?: string;
}) {
  const intl = useIntl();
  const { data: folders = [] } = useQuery(foldersQueryOptions(collectionId));
  const current = accessValue(value);
  const known = current === 'viewer' || current === 'contributor:' || folders.some((f) => current === `contributor:${f.id}`);
  return (
    <SelectField label={label} value={current} disabled={disabled} onChange={(event) => onChange(accessOf(event.target.value))} className={className}>
      <option value="viewer">{intl.formatMessage({ id: 'collections.guestAccess.viewer', defaultMessage: 'Can view and download' })}</option>
      <option value="contributor:">{intl.formatMessage({ id: 'collections.guestAccess.anywhere', defaultMessage: 'Can also add files, anywhere' })}</option>
      {folders.map((folder) => (
        <option key={folder.id} value={`contributor:${folder.id}`}>
          {intl.formatMessage({ id: 'collections.guestAccess.folder', defaultMessage: 'Can also add files to {path}' }, { path: folder.path })}
        </option>
      ))}
      {/* A folder since deleted: said as it is, so the select does not pretend otherwise. */}
      {known ? null : (
        <option value={current}>{intl.formatMessage({ id: 'collections.guestAccess.folderGone', defaultMessage: 'Can add files to a folder that is gone' })}</option>
      )}
    </SelectField>
  );
}
