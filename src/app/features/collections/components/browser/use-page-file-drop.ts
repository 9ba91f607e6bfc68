import { getDroppedFiles } from '@uppy/core/utils';
import { useEffect, useRef, useState } from 'react';
import { ITEMS_DRAG_TYPE } from './use-item-drag';

/** Files from outside the page, not the browser's own items being moved. */
function carriesFiles(event: DragEvent): boolean {
  const types = Array.from(event.dataTransfer?.types ?? []);
  return types.includes('Files') && !types.includes(ITEMS_DRAG_TYPE);
}

/**
 * Files and whole folders dropped anywhere on the page. Whether something is being dragged over it
 * is returned, for the page to show where the files will go. A drop on the uploader's own area is
 * handled there (it stops the event), never twice.
 */
export function usePageFileDrop(onFiles: (files: File[]) => void): boolean {
  const [dragging, setDragging] = useState(false);
  const latest = useRef(onFiles);
  useEffect(() => {
    latest.current = onFiles;
  });

  useEffect(() => {
    // dragenter and dragleave fire for every element crossed: counted, so leaving a child is not leaving the page.
    let depth = 0;
    const enter = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth += 1;
      setDragging(true);
    };
    const over = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const leave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const ended = () => {
      depth = 0;
      setDragging(false);
    };
    const drop = (event: DragEvent) => {
      if (!carriesFiles(event) || !event.dataTransfer) return;
      event.preventDefault();
      // Read now: the browser empties the drop's data once this handler returns.
      void getDroppedFiles(event.dataTransfer).then((files) => {
        if (files.length > 0) latest.current(files);
      });
    };
    document.addEventListener('dragenter', enter);
    document.addEventListener('dragover', over);
    document.addEventListener('dragleave', leave);
    document.addEventListener('drop', ended, true);
    document.addEventListener('dragend', ended, true);
    document.addEventListener('drop', drop);
    return () => {
      document.removeEventListener('dragenter', enter);
      document.removeEventListener('dragover', over);
      document.removeEventListener('dragleave', leave);
      document.removeEventListener('drop', ended, true);
      document.removeEventListener('dragend', ended, true);
      document.removeEventListener('drop', drop);
    };
  }, []);

  return dragging;
}
