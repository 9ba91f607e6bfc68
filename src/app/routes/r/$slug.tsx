import { createFileRoute } from '@tanstack/react-router';
import { RecipientShell } from '../../features/recipient/components/recipient-shell';
import { UploadRequestPage } from '../../features/uploader-page/components/upload-request-page';
import { useIntl } from '../../lib/intl';

/** An upload request's link: anyone who has it sends files. Public by design: no sign-in, no workspace credential. */
export const Route = createFileRoute('/r/$slug')({
  component: UploadRequestRoute,
});

function UploadRequestRoute() {
  const intl = useIntl();
  const { slug } = Route.useParams();
  return (
    <RecipientShell
      footer={intl.formatMessage({ id: 'pages.uploadRequest.footer', defaultMessage: 'Files are sent with Parcel. Uploads resume if the connection drops.' })}
    >
      {/* A new slug is a new request: its own details, submission and uploads. */}
      <UploadRequestPage key={slug} slug={slug} />
    </RecipientShell>
  );
}
