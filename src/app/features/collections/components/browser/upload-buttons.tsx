import { useRef, type ChangeEvent } from 'react';
import { buttonClass } from '../../../../components/button';
import { icons } from './icons';

/** A folder picker: not in React's input attributes, and what browsers call it. */
const folderPicker = { webkitdirectory: '', directory: '' } as Record<string, string>;

/**
 * "Upload files" and "Upload folder": the pickers behind the page's drop zone. A folder's files
 * come with their paths inside it (`webkitRelativePath`), so its tree is kept.
 */
export function UploadButtons({ onFiles }: { onFiles: (files: File[]) => void }) {
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
      <button type="button" className={buttonClass('primary')} onClick={() => filesInput.current?.click()}>
        {icons.upload}
        Upload files
      </button>
      <button type="button" className={buttonClass('secondary')} onClick={() => folderInput.current?.click()}>
        {icons.upload}
        Upload folder
      </button>
      <input ref={filesInput} type="file" multiple hidden tabIndex={-1} data-testid="upload-files-input" onChange={picked} />
      <input ref={folderInput} type="file" multiple hidden tabIndex={-1} data-testid="upload-folder-input" onChange={picked} {...folderPicker} />
    </>
  );
}
