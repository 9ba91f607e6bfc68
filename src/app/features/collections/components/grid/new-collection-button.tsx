import { useState } from 'react';
import { Button } from '../../../../components/button';
import { useIntl } from '../../../../lib/intl';
import { CreateCollectionDialog } from './create-collection-dialog';

/** Opens the create form; `label` differs where two such buttons could be on one page (the empty state). */
export function NewCollectionButton({ label }: { label?: string }) {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>{label ?? intl.formatMessage({ id: 'collections.grid.newCollection', defaultMessage: 'New collection' })}</Button>
      {open ? <CreateCollectionDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}
