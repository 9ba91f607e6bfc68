import { useState } from 'react';
import { Button } from '../../../../components/button';
import { CreateCollectionDialog } from './create-collection-dialog';

/** Opens the create form; `label` differs where two such buttons could be on one page (the empty state). */
export function NewCollectionButton({ label = 'New collection' }: { label?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>{label}</Button>
      {open ? <CreateCollectionDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}
