import type { Contact } from '../../../../contract/contacts';
import { Button } from '../../../components/button';
import { useIntl } from '../../../lib/intl';
import { contactsCsvFileName, contactsToCsv } from '../utils/contact-export';

/**
 * Saves the whole address book as a CSV file (RFC 4180, UTF-8, formulas neutralised) that this page
 * imports again unchanged. Made from the contacts already on the page: no request, nothing to wait for.
 */
export function ExportContactsButton({ contacts, workspaceName }: { contacts: Contact[]; workspaceName: string }) {
  const intl = useIntl();
  function save() {
    const blob = new Blob([contactsToCsv(contacts)], { type: 'text/csv;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = contactsCsvFileName(workspaceName, new Date());
    document.body.append(link);
    link.click();
    link.remove();
    // The download has started from the URL; releasing it right away can cancel it in some browsers.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
  return (
    <Button variant="secondary" onClick={save} disabled={contacts.length === 0}>
      {intl.formatMessage({ id: 'contacts.export.button', defaultMessage: 'Export CSV' })}
    </Button>
  );
}
