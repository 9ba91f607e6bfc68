import { useRef, type ChangeEvent } from 'react';
import { useIntl } from '../../lib/intl';
import { buttonClass } from '../button';

const uploadGlyph = (
  <svg aria-hidden="true" focusable="false" viewBox="0 0 20 20" className="size-4 shrink-0" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round">
    <path d="M10 13.5V4M6 7.5l4-4 4 4M3.5 16.5h13" />
  </svg>
);

/** A folder picker: not in React's input attributes, and what browsers call it. */
const folderPicker = { webkitdirectory: '', directory: '' } as Record<string, string>;

/**
 * "Upload files" and "Upload folder": the pickers behind the page's drop zone. A folder's files
 * come with their paths inside it (`webkitRelativePath`), so its tree is kept.
 */
export function UploadButtons({ onFiles, primary = true }: { onFiles: (files: File[]) => void; primary?: boolean }) {
  const intl = useIntl();
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    // Cleared, so picking the same files again is a change too.
    event.target.value = '';
    if (files.length > 0) onFiles(files);
  };
  // A fragment: the buttons wrap with the header's other actions.
  return (
    <>
      <button type="button" className={buttonClass(primary ? 'primary' : 'secondary')} onClick={() => filesInput.current?.click()}>
        {uploadGlyph}
        {intl.formatMessage({ id: 'common.uploadButtons.files', defaultMessage: 'Upload files' })}
      </button>
      <button type="button" className={buttonClass('secondary')} onClick={() => folderInput.current?.click()}>
        {uploadGlyph}
        {intl.formatMessage({ id: 'common.uploadButtons.folder', defaultMessage: 'Upload folder' })}
      </button>
      <input ref={filesInput} type="file" multiple hidden tabIndex={-1} data-testid="upload-files-input" onChange={picked} />
      <input ref={folderInput} type="file" multiple hidden tabIndex={-1} data-testid="upload-folder-input" onChange={picked} {...folderPicker} />
    </>
  );
}
