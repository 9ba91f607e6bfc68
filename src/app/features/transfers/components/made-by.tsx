import { defineMessages, type MessageDescriptor } from 'react-intl';
import type { Sender } from '../../../../contract/transfers';
import { useIntl } from '../../../lib/intl';
import { useSession } from '../../auth';

/**
 * The same words in English whatever was made, but not in every language (Japanese says "sent" or
 * "made", Polish agrees with the thing's gender): a transfer is sent, an upload request or a
 * contact is made.
 */
const lines: Record<'sent' | 'made', Record<'key' | 'you' | 'name' | 'former', MessageDescriptor>> = {
  sent: defineMessages({
    key: { id: 'transfers.row.sentByKey', defaultMessage: 'by API key “{name}”' },
    you: { id: 'transfers.row.sentByYou', defaultMessage: 'by you' },
    name: { id: 'transfers.row.sentByName', defaultMessage: 'by {name}' },
    former: { id: 'transfers.row.sentByFormer', defaultMessage: 'by a former member' },
  }),
  made: defineMessages({
    key: { id: 'madeBy.key', defaultMessage: 'by API key “{name}”', description: 'Who made an upload request or a contact: an API key (name: the key’s name)' },
    you: { id: 'madeBy.you', defaultMessage: 'by you', description: 'Who made an upload request or a contact: the person reading' },
    name: { id: 'madeBy.name', defaultMessage: 'by {name}', description: 'Who made an upload request or a contact: a teammate (name: their name or address)' },
    former: { id: 'madeBy.former', defaultMessage: 'by a former member', description: 'Who made an upload request or a contact: someone whose account is gone' },
  }),
};

/**
 * Who sent a transfer, or made an upload request or a contact, as teammates know them: "you", their
 * name (or address), or the API key. Nothing for what was made before teams.
 */
export function MadeBy({ by, verb }: { by: Sender | null; verb: keyof typeof lines }) {
  const intl = useIntl();
  const session = useSession();
  if (!by) return null;
  const messages = lines[verb];
  // The names are plain values (no <bdi>): the line is one text, as the list's tests and end-to-end tests read it.
  const known = by.name ?? by.email;
  const text =
    by.kind === 'key'
      ? intl.formatMessage(messages.key, { name: by.name ?? by.id })
      : by.id === session.user.id
        ? intl.formatMessage(messages.you)
        : known != null
          ? intl.formatMessage(messages.name, { name: known })
          : intl.formatMessage(messages.former);
  return <span className="truncate text-xs text-zinc-600 dark:text-zinc-400">{text}</span>;
}
