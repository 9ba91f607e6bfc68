import type { UploadRequest } from '../../../../contract/requests';
import { Section } from '../../../components/section';
import { ShareLink } from '../../../components/share-link';
import { requestState, type RequestState } from '../utils/request-status';

const whatItDoes: Record<RequestState, string> = {
  open: 'Anyone who has this link can send files into the collection, without an account. Share it only with the people you want files from.',
  paused: 'While the request is paused, the page opens but says so and takes no files.',
  deadline: 'The deadline has passed: the page opens but says it no longer accepts files.',
  on_hold: 'On the free plan, the page opens but takes no files.',
  closed: 'The request is closed: the page says it no longer accepts files.',
};

/** The public page's link, to copy, open or scan, and what it lets people do right now. */
export function RequestLink({ request }: { request: UploadRequest }) {
  return (
    <Section title="Upload link">
      <ShareLink
        label="Upload link"
        url={request.url}
        description={whatItDoes[requestState(request)]}
        openLabel="Open the upload page"
        qrLabel={`QR code of the link to ${request.title}`}
      />
    </Section>
  );
}
