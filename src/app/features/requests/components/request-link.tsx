import { defineMessages, type MessageDescriptor } from 'react-intl';
import type { UploadRequest } from '../../../../contract/requests';
import { Section } from '../../../components/section';
import { ShareLink } from '../../../components/share-link';
import { useIntl } from '../../../lib/intl';
import { requestState, type RequestState } from '../utils/request-status';

const whatItDoes: Record<RequestState, MessageDescriptor> = defineMessages({
  open: {
    id: 'requests.link.whatItDoes.open',
    defaultMessage: 'Anyone who has this link can send files into the collection, without an account. Share it only with the people you want files from.',
  },
  paused: { id: 'requests.link.whatItDoes.paused', defaultMessage: 'While the request is paused, the page opens but says so and takes no files.' },
  deadline: { id: 'requests.link.whatItDoes.deadline', defaultMessage: 'The deadline has passed: the page opens but says it no longer accepts files.' },
  on_hold: { id: 'requests.link.whatItDoes.onHold', defaultMessage: 'On the free plan, the page opens but takes no files.' },
  closed: { id: 'requests.link.whatItDoes.closed', defaultMessage: 'The request is closed: the page says it no longer accepts files.' },
});

/** The public page's link, to copy, open or scan, and what it lets people do right now. */
export function RequestLink({ request }: { request: UploadRequest }) {
  const intl = useIntl();
  const uploadLink = intl.formatMessage({ id: 'requests.link.title', defaultMessage: 'Upload link' });
  return (
    <Section title={uploadLink}>
      <ShareLink
        label={uploadLink}
        url={request.url}
        description={intl.formatMessage(whatItDoes[requestState(request)])}
        openLabel={intl.formatMessage({ id: 'requests.link.open', defaultMessage: 'Open the upload page' })}
        qrLabel={intl.formatMessage({ id: 'requests.link.qrLabel', defaultMessage: 'QR code of the link to {title}' }, { title: request.title })}
      />
    </Section>
  );
}
